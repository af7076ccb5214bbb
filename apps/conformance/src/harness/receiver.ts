import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventKey, WEBHOOK_EVENT_SCHEMAS, WEBHOOK_SIGNATURE_HEADER, WebhookEvent } from '@switchyard/contract';
import type { ZodTypeAny } from 'zod';
import { nonUtcTimestamps, undocumentedFields } from './checks.js';

export interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  /** The exact bytes received: the signature covers these, not a re-serialisation. */
  raw: Buffer;
}

/** A webhook endpoint the suite registers: it keeps every delivery and answers 200. */
export async function startReceiver() {
  const deliveries: Delivery[] = [];
  const waiting: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, raw: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      for (const w of waiting.splice(0)) w();
    });
  });
  // Idle connections are left to the sender to close. On Node's 5 s timer, a delivery sent on a
  // pooled connection as this server closed it would be lost, and the server under test's retry
  // would then show as a late delivery. The receiver lives for one run, and `close` ends them all.
  server.keepAliveTimeout = 0;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/conformance-hook`,
    deliveries,
    /** Resolves once `count` deliveries arrived, or rejects after `ms`. */
    waitFor: (count: number, ms: number) =>
      new Promise<Delivery[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${deliveries.length} of ${count} webhook deliveries arrived within ${ms} ms`)), ms);
        const check = () => {
          if (deliveries.length >= count) {
            clearTimeout(timer);
            resolve(deliveries.slice());
          } else waiting.push(check);
        };
        check();
      }),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * What is wrong with a delivery: its signature is not Base64(HMAC-SHA256(secret, the exact bytes))
 * in the contract's signature header, or its body is not an event of the contract's catalogue
 * (no undocumented field, UTC timestamps).
 */
export function deliveryProblems(d: Delivery, secret: string): string[] {
  const problems: string[] = [];
  const given = d.headers[WEBHOOK_SIGNATURE_HEADER];
  const expected = createHmac('sha256', secret).update(d.raw).digest('base64');
  if (typeof given !== 'string') problems.push(`no ${WEBHOOK_SIGNATURE_HEADER} header`);
  else if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected))) problems.push(`${WEBHOOK_SIGNATURE_HEADER} is not Base64(HMAC-SHA256(secret, body bytes))`);
  let body: unknown;
  try {
    body = JSON.parse(d.raw.toString('utf8'));
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  const parsed = WebhookEvent.safeParse(body);
  if (!parsed.success) problems.push(`not an event of the contract: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  else {
    const schema = WEBHOOK_EVENT_SCHEMAS[eventKey(body as { type: string; type_event: string })] as ZodTypeAny;
    const extra = undocumentedFields(schema, body);
    if (extra.length) problems.push(`fields the event schema does not define: ${extra.slice(0, 5).join(', ')}`);
  }
  const wrongTimes = nonUtcTimestamps(body);
  if (wrongTimes.length) problems.push(`timestamps not in UTC: ${wrongTimes.slice(0, 3).join('; ')}`);
  return problems;
}
