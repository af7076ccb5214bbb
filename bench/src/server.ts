import { randomUUID } from 'node:crypto';
import { fixtures } from '@switchyard/contract/fixtures';
import type { Figure } from './report.js';
import { load, unique, type LoadResult } from './load.js';
import { pacedInProcess as paced, type PacedResult } from './paced.js';
import { DEMO_KEYS, paymentBody, pool, post, sessions } from './demo-api.js';
import { startBaseline, startPrismMock, startSandboxProcess, type Spawned } from './processes.js';

export interface ServerBenchOptions {
  durationSeconds: number;
  /** Measured rounds per server in the throughput comparison (each figure is their mean). */
  rounds: number;
  /**
   * How long each closed-loop run lasts: a duration in a full run; a request count in the smoke
   * run, because autocannon samples once a second and a sub-second duration still takes seconds.
   */
  loadSize: { durationSeconds: number } | { amount: number };
  /** Whether each server gets an unmeasured round first (a smoke run only proves the path works). */
  warmUp: boolean;
  /** Requests in the fixed-amount runs (payments, refunds). */
  amount: number;
  fixedRate: number;
  /** Customers a fresh sandbox stores before its fixed-rate run (the memory benchmark's count). */
  storedCustomers: number;
}

export const customerBody = () => ({ body: JSON.stringify({ merchant_customer_id: unique('bench'), first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', country: 'AR' }) });

/**
 * What each payment of a run pays: checkout sessions made on `s` beforehand, or, for the stack
 * floor, which checks none, any UUID.
 */
export const paymentTargets = async (s: Spawned, amount: number, checksSessions: boolean) => (checksSessions ? await sessions(s.url, amount) : Array.from({ length: amount }, () => randomUUID()));

/** `POST /v1/payments` closed loop, each request paying its own target (`paymentTargets`) with a key of its own. */
export function payments(s: Spawned, targets: string[], name: string): Promise<LoadResult> {
  let p = 0;
  return load({ url: `${s.url}/v1/payments`, headers: DEMO_KEYS, amount: targets.length, next: () => ({ body: JSON.stringify(paymentBody(targets[p++] as string)), headers: { 'x-idempotency-key': unique('pay') } }) }).then((r) => checked(name, r));
}

/**
 * `POST /v1/payments` at a fixed rate, each request paying its own checkout session (created
 * first; any UUID when `checksSessions` is false), after a second of the same load that is not counted. `around` wraps the paced run
 * alone, sessions made: it is told how many requests the run sends, warm-up included.
 */
export async function paymentsAtRate(
  s: Spawned,
  o: Pick<ServerBenchOptions, 'fixedRate' | 'durationSeconds'>,
  around: (run: () => Promise<PacedResult>, requests: number) => Promise<PacedResult> = (run) => run(),
  checksSessions = true,
): Promise<PacedResult> {
  const warmupSeconds = Math.min(1, o.durationSeconds);
  const rateSessions = await paymentTargets(s, Math.ceil(o.fixedRate * (o.durationSeconds + 1)), checksSessions);
  const paymentAt = (i: number) => ({ body: JSON.stringify(paymentBody(rateSessions[i] as string)), headers: { 'x-idempotency-key': unique('rate') } });
  const requests = Math.round(o.fixedRate * warmupSeconds) + Math.round(o.fixedRate * o.durationSeconds);
  return checked('payments at fixed rate', await around(() => paced({ url: `${s.url}/v1/payments`, headers: DEMO_KEYS, rate: o.fixedRate, durationSeconds: o.durationSeconds, warmupSeconds, next: paymentAt }), requests));
}

/** The mean of several runs of one load (latencies too: each run's percentile, averaged). */
function meanOf(runs: LoadResult[]): LoadResult {
  const mean = (f: (r: LoadResult) => number) => runs.reduce((sum, r) => sum + f(r), 0) / runs.length;
  const sum = (f: (r: LoadResult) => number) => runs.reduce((total, r) => total + f(r), 0);
  return { rps: mean((r) => r.rps), p50: mean((r) => r.p50), p99: mean((r) => r.p99), non2xx: sum((r) => r.non2xx), errors: sum((r) => r.errors), total: sum((r) => r.total) };
}

/** Warns about failed requests in a load run (the figures still count them). */
export function checked<R extends { non2xx: number; errors: number; total: number }>(name: string, r: R): R {
  if (r.errors > 0 || r.non2xx > 0) process.stderr.write(`warning: ${name}: ${r.non2xx} non-2xx, ${r.errors} errors of ${r.total}\n`);
  return r;
}

/** `POST /v1/customers` closed loop, unique bodies, for a duration or an amount. */
export const customers = (s: Spawned, size: ServerBenchOptions['loadSize']) => load({ url: `${s.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, ...size });

/** What the stack-floor server is (servers/stack-floor.ts). */
const STACK_FLOOR = 'Express 4 + ts-rest + zod validating the contract\'s route + a batched pino line per request, on the sandbox\'s createHttpServer, nothing stored';

/**
 * Throughput and latency of the sandbox against a bare node:http server, an Express server, the
 * stack floor (servers/stack-floor.ts) and Stoplight Prism, all started in this run on this machine.
 */
export async function serverBench(o: ServerBenchOptions): Promise<Figure[]> {
  const figures: Figure[] = [];
  const started: Spawned[] = [];
  try {
    const sandbox = await startSandboxProcess();
    const nodeHttp = await startBaseline('node-http');
    const express = await startBaseline('express');
    const expressClasses = await startBaseline('express-server-classes');
    const stackFloor = await startBaseline('stack-floor');
    const measured = [sandbox, nodeHttp, express, expressClasses, stackFloor];
    started.push(...measured);

    // In a full run each server is first warmed up for as long as a round (its JIT compiles the request path;
    // the sandbox has the most code to compile and was still speeding up after 2 s), then the
    // servers are measured in turn, `rounds` times (three in a full run), and each figure is the
    // mean of its rounds.
    if (o.warmUp) for (const s of measured) await customers(s, o.loadSize);
    const names = ['sandbox', 'node:http', 'express', 'express on createHttpServer', 'stack floor'];
    const rounds: LoadResult[][] = [];
    for (let round = 0; round < o.rounds; round += 1) {
      const results: LoadResult[] = [];
      for (const [k, s] of measured.entries()) results.push(checked(`${names[k]} customers`, await customers(s, o.loadSize)));
      rounds.push(results);
    }
    const [ours, bare, ex, exClasses, stack] = measured.map((_, k) => meanOf(rounds.map((r) => r[k] as LoadResult))) as [LoadResult, LoadResult, LoadResult, LoadResult, LoadResult];
    // The sandbox stores every customer it creates, the baselines nothing: the rounds show the drift.
    const perRound = (k: number) => rounds.map((r) => Math.round((r[k] as LoadResult).rps)).join(' / ');
    figures.push(
      { name: 'POST /v1/customers throughput vs bare node:http', ours: ours.rps, baseline: bare.rps, baselineName: `node:http parsing the same JSON; rounds: ${perRound(1)}`, unit: 'req/s', ratio: ours.rps / bare.rps, target: '≥ 0.5×', met: ours.rps / bare.rps >= 0.5 },
      { name: 'POST /v1/customers throughput vs Express', ours: ours.rps, baseline: ex.rps, baselineName: `Express 4 + express.json(); rounds: sandbox ${perRound(0)}, Express ${perRound(2)}`, unit: 'req/s', ratio: ours.rps / ex.rps, target: '≥ 1.5×', met: ours.rps / ex.rps >= 1.5 },
      { name: 'POST /v1/customers throughput vs Express on the sandbox\'s createHttpServer', ours: ours.rps, baseline: exClasses.rps, baselineName: `the same Express app, its requests built with the app's prototypes; rounds: ${perRound(3)}`, unit: 'req/s', ratio: ours.rps / exClasses.rps, target: 'report', met: null },
      { name: 'POST /v1/customers on the stack alone vs bare node:http', ours: stack.rps, baseline: bare.rps, baselineName: `${STACK_FLOOR} (rounds: ${perRound(4)})`, unit: 'req/s', ratio: stack.rps / bare.rps, target: 'report', met: null },
      { name: 'POST /v1/customers throughput vs the stack alone', ours: ours.rps, baseline: stack.rps, baselineName: 'the same stack with nothing stored (above): what authentication, the journal, the store, its events and the compaction of records cost', unit: 'req/s', ratio: ours.rps / stack.rps, target: 'report', met: null },
      { name: 'POST /v1/customers p99 latency (10 connections)', ours: ours.p99, baseline: ex.p99, baselineName: 'Express 4', unit: 'ms', ratio: ours.p99 / Math.max(ex.p99, 0.001), target: 'report', met: null },
    );

    const prism = await startPrismMock();
    started.push(prism);
    if (o.warmUp) await customers(prism, o.loadSize);
    const peer = checked('prism customers', await customers(prism, o.loadSize));
    figures.push({ name: 'POST /v1/customers throughput vs Prism 5.14.2 (mock)', ours: ours.rps, baseline: peer.rps, baselineName: 'Stoplight Prism mocking openapi.json', unit: 'req/s', ratio: ours.rps / peer.rps, target: '≥ 3×', met: ours.rps / peer.rps >= 3 });
    figures.push({ name: 'Startup: spawn to ready', ours: sandbox.startupMs, baseline: prism.startupMs, baselineName: 'Prism 5.14.2 spawn to listening', unit: 'ms', ratio: sandbox.startupMs / prism.startupMs, target: '< 1000 ms', met: sandbox.startupMs < 1000 });

    // Each payments run pays its own sessions; the stack floor checks none, so any UUID does. In a
    // full run both servers first take an unmeasured run (a third as long): the floor's payment
    // route is compiled by nothing before it (the floor's first version read 2,103 req/s in its
    // first run of 3,000 payments, against 3,466-3,892 for the next four).
    const paymentsOf = async (s: Spawned, amount: number, name: string) => payments(s, await paymentTargets(s, amount, s !== stackFloor), name);
    if (o.warmUp) for (const s of [sandbox, stackFloor]) await paymentsOf(s, Math.ceil(o.amount / 3), 'payments warm-up');
    const paid = await paymentsOf(sandbox, o.amount, 'payments');
    const stackPayments = await paymentsOf(stackFloor, o.amount, 'stack floor payments');
    figures.push(
      { name: 'POST /v1/payments throughput', ours: paid.rps, baseline: ex.rps, baselineName: 'Express customers baseline', unit: 'req/s', ratio: paid.rps / ex.rps, target: 'report', met: null },
      { name: 'POST /v1/payments throughput vs bare node:http', ours: paid.rps, baseline: bare.rps, baselineName: 'node:http answering POST /v1/customers (above)', unit: 'req/s', ratio: paid.rps / bare.rps, target: '≥ 0.25×', met: paid.rps / bare.rps >= 0.25 },
      { name: 'POST /v1/payments on the stack alone vs bare node:http', ours: stackPayments.rps, baseline: bare.rps, baselineName: `${STACK_FLOOR}, answering a payment of the sandbox's size`, unit: 'req/s', ratio: stackPayments.rps / bare.rps, target: 'report', met: null },
      { name: 'POST /v1/payments throughput vs the stack alone', ours: paid.rps, baseline: stackPayments.rps, baselineName: 'the same stack with nothing stored (above): what authentication, idempotency, the journal, the store, its events and the compaction of records cost', unit: 'req/s', ratio: paid.rps / stackPayments.rps, target: 'report', met: null },
    );

    // Open loop at an even rate (see paced.ts), each after one second of the same load that is not
    // counted. The target figure is taken on a fresh sandbox holding a fixed number of customers:
    // the one measured above holds whatever the throughput rounds stored, which grows with the
    // sandbox's speed (about 70,000 customers once, 320,000 since) and moves the heap the
    // collector has to walk. That one is measured too, and reported beside it.
    const fresh = await startSandboxProcess();
    started.push(fresh);
    await load({ url: `${fresh.url}/v1/customers`, headers: DEMO_KEYS, next: customerBody, amount: o.storedCustomers });
    const atRate = await paymentsAtRate(fresh, o);
    const floor = checked('node:http at fixed rate', await paced({ url: `${nodeHttp.url}/v1/customers`, headers: {}, rate: o.fixedRate, durationSeconds: o.durationSeconds, warmupSeconds: Math.min(1, o.durationSeconds), next: customerBody }));
    const stackAtRate = await paymentsAtRate(stackFloor, o, undefined, false);
    await fresh.stop();
    const loaded = await paymentsAtRate(sandbox, o);
    const lag = (r: PacedResult) => `the generator sent at most ${r.sendLagMax.toFixed(1)} ms late (p99 ${r.sendLagP99.toFixed(1)} ms)`;
    figures.push(
      {
        name: `POST /v1/payments p99 at ${o.fixedRate} req/s (open loop, even pacing; fresh sandbox holding ${o.storedCustomers} customers)`,
        ours: atRate.p99,
        baseline: floor.p99,
        baselineName: `bare node:http at the same rate: the floor of generator and machine; ${lag(atRate)}`,
        unit: 'ms',
        ratio: atRate.p99 / Math.max(floor.p99, 0.001),
        target: '≤ 10 ms',
        met: atRate.p99 <= 10,
      },
      {
        name: `POST /v1/payments p99 at ${o.fixedRate} req/s on the stack alone`,
        ours: stackAtRate.p99,
        baseline: floor.p99,
        baselineName: `bare node:http at the same rate; ${STACK_FLOOR}, answering a payment of the sandbox's size; ${lag(stackAtRate)}`,
        unit: 'ms',
        ratio: stackAtRate.p99 / Math.max(floor.p99, 0.001),
        target: 'report',
        met: null,
      },
      { name: `POST /v1/payments p50 at ${o.fixedRate} req/s (same run)`, ours: atRate.p50, baseline: floor.p50, baselineName: 'bare node:http at the same rate', unit: 'ms', ratio: atRate.p50 / Math.max(floor.p50, 0.001), target: 'report', met: null },
      {
        name: `POST /v1/payments p99 at ${o.fixedRate} req/s on the sandbox of the throughput rounds (everything above stored)`,
        ours: loaded.p99,
        baseline: floor.p99,
        baselineName: `bare node:http at the same rate; ${lag(loaded)}`,
        unit: 'ms',
        ratio: loaded.p99 / Math.max(floor.p99, 0.001),
        target: 'report',
        met: null,
      },
    );

    const refundable = await pool(o.amount, 16, async () => {
      const s = (await sessions(sandbox.url, 1))[0] as string;
      const pay = await post<{ id: string; transactions: { id: string } }>(sandbox.url, '/v1/payments', paymentBody(s), { 'x-idempotency-key': unique('pre') });
      return `/v1/payments/${pay.id}/transactions/${pay.transactions.id}/refund`;
    });
    let r = 0;
    const refundStart = performance.now();
    await pool(refundable.length, 10, () => post(sandbox.url, refundable[r++] as string, fixtures.refund(), { 'x-idempotency-key': unique('refund') }));
    const refundRps = refundable.length / ((performance.now() - refundStart) / 1000);
    figures.push({ name: 'Refund throughput (each payment refunded once)', ours: refundRps, baseline: paid.rps, baselineName: 'POST /v1/payments', unit: 'req/s', ratio: refundRps / paid.rps, target: 'report', met: null });

    const replaySession = (await sessions(sandbox.url, 1))[0] as string;
    const replayBody = JSON.stringify(paymentBody(replaySession));
    await post(sandbox.url, '/v1/payments', JSON.parse(replayBody), { 'x-idempotency-key': 'bench-replay' });
    const replay = checked('replay', await load({ url: `${sandbox.url}/v1/payments`, headers: { ...DEMO_KEYS, 'x-idempotency-key': 'bench-replay' }, next: () => ({ body: replayBody }), ...o.loadSize }));
    figures.push({ name: 'Idempotent replay throughput (POST /v1/payments, same key)', ours: replay.rps, baseline: ex.rps, baselineName: 'Express customers baseline', unit: 'req/s', ratio: replay.rps / ex.rps, target: 'report', met: null });

  } finally {
    await Promise.all(started.map((s) => s.stop()));
  }
  return figures;
}
