import { createClient } from '@switchyard/client';
import type { Figure } from './report.js';
import { DEMO_KEYS } from './demo-api.js';
import { startSandboxProcess } from './processes.js';

export interface ClientOverheadOptions {
  calls: number;
  warmup: number;
  block: number;
}

/**
 * Time per `client.customers.create` against raw `fetch` with the same body and headers, on the
 * same sandbox process, sequential calls. The two run in alternating blocks so drift (JIT,
 * garbage collection, the machine) hits both alike.
 */
export async function clientOverhead(options: ClientOverheadOptions): Promise<Figure[]> {
  const server = await startSandboxProcess();
  try {
    const keys = DEMO_KEYS;
    const client = createClient({ baseUrl: server.url, publicApiKey: keys['public-api-key'], privateSecretKey: keys['private-secret-key'] });
    let n = 0;
    const body = () => ({ merchant_customer_id: `bench-${++n}`, first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'AR' as const });
    const viaClient = async () => {
      await client.customers.create({ body: body() });
    };
    const viaFetch = async () => {
      const res = await fetch(`${server.url}/v1/customers`, { method: 'POST', headers: { ...keys, 'content-type': 'application/json' }, body: JSON.stringify(body()) });
      if (res.status !== 201) throw new Error(`raw fetch got ${res.status}`);
      await res.json();
    };
    for (let i = 0; i < options.warmup; i += 1) {
      await viaClient();
      await viaFetch();
    }
    // Blocks in pairs, the pair's order alternating so neither side always runs first. The
    // figure is the median of the pairs' ratios: a pause of the machine spoils one pair, not
    // the result.
    const totals = { client: 0, fetch: 0 };
    const ratios: number[] = [];
    const timeBlock = async (fn: () => Promise<void>) => {
      const started = performance.now();
      for (let i = 0; i < options.block; i += 1) await fn();
      return performance.now() - started;
    };
    let done = 0;
    while (done < options.calls) {
      const clientFirst = (done / options.block) % 2 === 0;
      const first = await timeBlock(clientFirst ? viaClient : viaFetch);
      const second = await timeBlock(clientFirst ? viaFetch : viaClient);
      const [c, f] = clientFirst ? [first, second] : [second, first];
      totals.client += c;
      totals.fetch += f;
      ratios.push(c / f);
      done += options.block;
    }
    ratios.sort((a, b) => a - b);
    const ratio = ratios[Math.floor(ratios.length / 2)] as number;
    const perCall = { client: totals.client / done, fetch: totals.fetch / done };
    return [
      {
        name: 'Client overhead: ms per sequential POST /v1/customers',
        ours: perCall.client,
        baseline: perCall.fetch,
        baselineName: 'raw fetch, same body and headers',
        unit: 'ms/call',
        ratio,
        target: '≤ 1.10× (median of paired blocks)',
        met: ratio <= 1.1,
      },
    ];
  } finally {
    await server.stop();
  }
}
