import type { SwitchyardClient } from '@switchyard/client';
import type { CallArgs, OperationCase } from './cases.js';

type RawFn = (args: unknown) => Promise<{ status: number; body: unknown }>;

/** Calls a route through the client's raw style (`{status, body}`), with arbitrary (even invalid) arguments. */
export function callRoute(client: SwitchyardClient, c: Pick<OperationCase, 'domainKey' | 'name'>, args: CallArgs & { idempotencyKey?: string }): Promise<{ status: number; body: unknown }> {
  const domain = (client as unknown as Record<string, { raw: Record<string, RawFn> }>)[c.domainKey];
  const fn = domain?.raw[c.name];
  if (!fn) throw new Error(`the client has no ${c.domainKey}.${c.name}`);
  return fn(args);
}
