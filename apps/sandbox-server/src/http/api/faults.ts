import type { Request, RequestHandler, Response } from 'express';
import { SANDBOX_FAULT_HEADER } from '@switchyard/contract';
import { decideRequestFault } from '../../app/faults.js';
import { DomainError } from '../../domain/errors.js';
import { describeFault, parseFaultHeader, type Fault } from '../../faults/rules.js';
import { ApiProblem } from '../../errors.js';
import type { Store } from '../../store/types.js';
import { REPLAYED_HEADER } from './deps.js';
import { authenticatedMerchant, matchedRoute } from '../server/locals.js';
import { sendProblem } from '../server/problem-response.js';
import { RequestStore, isFaultDecided, keepFaultDecision } from './stale-merchant.js';

export interface FaultsOptions {
  store: Store;
  /**
   * Wall-clock milliseconds for rate-limit buckets. Not the sandbox clock: a client waits real
   * seconds for `Retry-After`, and a seeded sandbox's clock stands still.
   */
  nowMs?: () => number;
}

type Write = (...args: unknown[]) => unknown;

/**
 * The post-commit hook: runs `atResponse` when the handler starts writing its response, which is
 * after the operation committed (idempotent routes have stored the response by then). It gets
 * the original `writeHead` and answers whether the response goes out unchanged; when it does
 * not, every later write is swallowed (the hook has destroyed or is holding the socket).
 */
function atFirstWrite(res: Response, atResponse: (writeHead: Write) => boolean): void {
  const originals = { writeHead: res.writeHead, write: res.write, end: res.end };
  const restore = () => Object.assign(res, originals);
  const intercept =
    (name: keyof typeof originals) =>
    (...args: unknown[]): unknown => {
      restore();
      if (atResponse(originals.writeHead.bind(res) as Write)) return (originals[name] as Write).apply(res, args);
      const swallow = () => res;
      Object.assign(res, { writeHead: swallow, write: () => true, end: swallow });
      return name === 'write' ? true : res;
    };
  Object.assign(res, { writeHead: intercept('writeHead'), write: intercept('write'), end: intercept('end') });
}

/** Drops the connection instead of the response, unless the response is an idempotent replay: the drop already happened to the request that committed. */
function commitThenDrop(req: Request, res: Response): void {
  atFirstWrite(res, () => {
    if (res.getHeader(REPLAYED_HEADER) === 'true') return true;
    req.socket.destroy();
    return false;
  });
}

/** Writes the response's status and headers, then holds the body back until the socket is destroyed `ms` later. */
function stall(req: Request, res: Response, ms: number): void {
  atFirstWrite(res, (writeHead) => {
    writeHead(res.statusCode);
    res.flushHeaders();
    const timer = setTimeout(() => req.socket.destroy(), ms);
    // The timer must neither outlive the socket nor keep a stopping process alive.
    timer.unref();
    res.on('close', () => clearTimeout(timer));
    return false;
  });
}

function sendStatus(res: Response, fault: Extract<Fault, { kind: 'status' | 'rate_limited' }>): void {
  if (fault.kind === 'rate_limited') {
    sendProblem(res, new DomainError('TOO_MANY_REQUESTS', [`rate limit exceeded: retry after ${fault.retryAfterSeconds} s`]));
    return;
  }
  if (fault.retryAfterSeconds !== undefined) res.setHeader('retry-after', String(fault.retryAfterSeconds));
  sendProblem(res, new ApiProblem(fault.status, fault.code, fault.messages));
}

/** Applies the fault; `next` continues to the route (latency, stall and commit-then-drop let it run). */
function apply(fault: Fault, req: Request, res: Response, next: () => void): void {
  switch (fault.kind) {
    case 'latency':
      // The request is processed even if its client gave up meanwhile, as a slow server would;
      // the timer alone does not keep a stopping process alive.
      setTimeout(next, fault.ms).unref();
      return;
    case 'status':
    case 'rate_limited':
      sendStatus(res, fault);
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'stall':
      stall(req, res, fault.ms);
      next();
      return;
    case 'commit_then_drop':
      commitThenDrop(req, res);
      next();
      return;
  }
}

/**
 * The faults middleware (docs/faults.md), after authentication: a request's `x-sandbox-fault`
 * header, else the merchant's rules, decide its fault. Control routes (`/sandbox/*`) are never
 * faulted, so a test can always clear its rules. The fault is left on `res.locals.fault` for
 * the request journal.
 */
export function faults(options: FaultsOptions): RequestHandler {
  const nowMs = options.nowMs ?? Date.now;
  return async (req, res, next) => {
    try {
      const route = matchedRoute(res);
      if (route.meta.domain === 'sandbox' || isFaultDecided(res)) {
        next();
        return;
      }
      const header = req.header(SANDBOX_FAULT_HEADER);
      if (header !== undefined) {
        keepFaultDecision(res, false);
        const parsed = parseFaultHeader(header);
        if ('error' in parsed) {
          sendProblem(res, new DomainError('INVALID_PARAMETERS', [parsed.error]));
          return;
        }
        res.locals.fault = { source: 'header', effect: describeFault(parsed.fault) };
        apply(parsed.fault, req, res, next);
        return;
      }
      const merchant = authenticatedMerchant(res);
      if (!merchant.fault_rules_used) {
        // A record not yet known current may lack a mark set meanwhile: decided again if it did.
        keepFaultDecision(res, true);
        next();
        return;
      }
      const request = { operationId: route.meta.operationId, method: req.method, path: req.path, header: (name: string) => req.header(name) };
      // Checked against the record (RequestStore), so the rules read are those of its current mark.
      const decision = await decideRequestFault(new RequestStore(options.store, res), merchant.id, request, nowMs());
      keepFaultDecision(res, false);
      for (const [name, value] of Object.entries(decision.headers)) res.setHeader(name, value);
      if (!decision.fired) {
        next();
        return;
      }
      const { fault, ruleId } = decision.fired;
      res.locals.fault = { source: 'rule', rule_id: ruleId, effect: describeFault(fault) };
      apply(fault, req, res, next);
    } catch (error) {
      next(error);
    }
  };
}
