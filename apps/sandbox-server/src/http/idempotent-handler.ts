import type { Response } from 'express';
import { IDEMPOTENCY_HEADER } from '@switchyard/contract';
import { contextOf, REPLAYED_HEADER, type HttpDeps } from './deps.js';
import { runIdempotent } from './idempotency.js';
import type { RequestContext } from '../app/context.js';

/**
 * Runs an idempotent route's operation under its key and marks replays. The status is the
 * route's success status: replays only ever return completed (successful) responses.
 */
export async function idempotentResponse<S extends number, B>(
  deps: HttpDeps,
  res: Response,
  headers: { [IDEMPOTENCY_HEADER]: string },
  operationId: string,
  status: S,
  operation: (ctx: RequestContext) => Promise<B>,
): Promise<{ status: S; body: B }> {
  const result = await runIdempotent(contextOf(deps, res), headers[IDEMPOTENCY_HEADER], operationId, deps.idempotency, async (ctx) => ({
    status,
    body: await operation(ctx),
  }));
  if (result.replayed) res.setHeader(REPLAYED_HEADER, 'true');
  return { status, body: result.body as B };
}
