import { createClient } from '@switchyard/client';
import type { Figure } from './report.js';
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
    const keys = { 'public-api-key': 'sandbox_pk_demo_switchyard', 'private-secret-key': 'sandbox_sk_demo_switchyard' };
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
    const totals = { client: 0, fetch: 0 };
    let done = 0;
    while (done < options.calls) {
      for (const [name, fn] of [['client', viaClient], ['fetch', viaFetch]] as const) {
        const started = performance.now();
        for (let i = 0; i < options.block; i += 1) await fn();
        totals[name] += performance.now() - started;
      }
      done += options.block;
    }
    const perCall = { client: totals.client / done, fetch: totals.fetch / done };
    return [
      {
        name: 'Client overhead: ms per sequential POST /v1/customers',
        ours: perCall.client,
        baseline: perCall.fetch,
        baselineName: 'raw fetch, same body and headers',
        unit: 'ms/call',
        ratio: perCall.client / perCall.fetch,
        target: '≤ 1.10×',
        met: perCall.client / perCall.fetch <= 1.1,
      },
    ];
  } finally {
    await server.stop();
  }
}
