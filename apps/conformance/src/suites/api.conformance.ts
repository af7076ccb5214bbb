import { beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SECRET_KEY_HEADER, type Payment } from '@switchyard/contract';
import { configFromEnv } from '../config.js';
import { callRoute } from '../harness/call.js';
import { bodySchemaOf, checksOf, operationCases, type CallArgs } from '../harness/cases.js';
import { ErrorShape, RESPONSE_CHECKS, responseViolation } from '../harness/checks.js';
import { negativeCases } from '../harness/negative.js';
import { describeExchange, type Exchange } from '../harness/recorder.js';
import { Unavailable, World } from '../harness/world.js';

const world = new World(configFromEnv());
beforeAll(() => world.setup());

/** Runs `fn`, reporting an Unavailable state as a skip with its reason. */
async function orSkip<T>(skip: (note?: string) => void, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof Unavailable) skip(error.message);
    throw error;
  }
}

/** The value, or a skip with the reason when a previous step could not provide it. */
function need<T>(value: T | undefined, skip: (note?: string) => void, reason: string): T {
  if (value === undefined) {
    skip(reason);
    throw new Error(reason);
  }
  return value;
}

function failWith(message: string, exchanges: Exchange[]): never {
  throw new Error([message, ...exchanges.map(describeExchange)].join('\n\n'));
}

const isSuccess = (status: number) => status >= 200 && status < 300;

for (const c of operationCases(world.checksControlApi)) {
  const op = c.meta.operationId;
  const route = c.route;
  // Which of these tests exist comes from checksOf, which the runner also counts with.
  const checks = checksOf(c);
  describe(`${c.meta.domain} ${op}`, () => {
    let prepared: CallArgs | undefined;

    it(`${op} › positive_data_acceptance`, async ({ skip }) => {
      prepared = await orSkip(skip, () => c.prepare(world));
      const client = c.key === 'sandbox.reset' && world.resetIdentity ? world.clientFor(world.resetIdentity) : world.client;
      const { value, exchanges } = await world.record(op, () => callRoute(client, c, prepared as CallArgs));
      if (!isSuccess(value.status)) failWith(`a valid request was refused with ${value.status}`, exchanges);
    });

    const bodySchema = bodySchemaOf(c);
    if (bodySchema && checks.includes('negative_data_rejection')) {
      it(`${op} › negative_data_rejection`, async ({ skip }) => {
        const args = need(prepared, skip, 'no valid request to derive invalid ones from');
        const cases = negativeCases(bodySchema, need(args.body, skip, 'the valid request has no body'), 6, world.config.seed);
        const failures: Exchange[] = [];
        for (const n of cases) {
          const { value, exchanges } = await world.record(op, () => callRoute(world.client, c, { ...args, body: n.body as Record<string, unknown> }));
          const shaped = ErrorShape.safeParse(value.body).success;
          if (!(value.status >= 400 && value.status < 500) || !shaped) failures.push(...exchanges.map((e) => ({ ...e, method: `${e.method} [${n.label}]` })));
        }
        if (failures.length) failWith(`${failures.length} invalid request(s) were not rejected with a 4xx in the error shape`, failures);
      });
    }

    it(`${op} › missing_required_header`, async ({ skip }) => {
      const args = need(prepared, skip, 'no valid request');
      const base = { params: args.params, body: args.body };
      const query = args.query ? `?${new URLSearchParams(Object.entries(args.query).map(([k, v]) => [k, String(v)]))}` : '';
      const target = { method: route.method, path: `${route.path}${query}` };
      const key = { [IDEMPOTENCY_HEADER]: crypto.randomUUID() };
      const attempts: [string, Exchange, (s: number) => boolean][] = [];
      if (c.key !== 'sandbox.createMerchant') {
        attempts.push(['without public-api-key', await world.send(target, { ...base, auth: null, headers: { [SECRET_KEY_HEADER]: world.me.secretKey, ...key } }), (s) => s === 401]);
        attempts.push(['without private-secret-key', await world.send(target, { ...base, auth: null, headers: { [PUBLIC_KEY_HEADER]: world.me.publicKey, ...key } }), (s) => s === 401]);
      }
      if (c.meta.idempotent) attempts.push(['without x-idempotency-key', await world.send(target, base), (s) => s === 400]);
      world.byOperation.set(op, [...(world.byOperation.get(op) ?? []), ...attempts.map((a) => a[1])]);
      if (attempts.length === 0) skip('the route takes no required header');
      const wrong = attempts.filter(([, e, ok]) => !ok(e.status) || !ErrorShape.safeParse(e.responseBody).success);
      if (wrong.length) failWith(`missing headers were not refused: ${wrong.map((w) => w[0]).join(', ')}`, wrong.map((w) => w[1]));
    });

    if (checks.includes('ignored_auth')) {
      it(`${op} › ignored_auth`, async ({ skip }) => {
        const args = need(prepared, skip, 'no valid request');
        const query = args.query ? `?${new URLSearchParams(Object.entries(args.query).map(([k, v]) => [k, String(v)]))}` : '';
        const target = { method: route.method, path: `${route.path}${query}` };
        const headers = { [IDEMPOTENCY_HEADER]: crypto.randomUUID() };
        const base = { params: args.params, body: args.body, headers };
        const checks: [string, Exchange, (s: number) => boolean][] = [
          ['no keys', await world.send(target, { ...base, auth: null }), (s) => s === 401],
          ['wrong keys', await world.send(target, { ...base, auth: { publicKey: 'sandbox_pk_wrong', secretKey: 'sandbox_sk_wrong', accountId: '' } }), (s) => s === 401],
        ];
        // Another merchant's keys must not reach what the request names: our resources (path) or our account.
        const namesOurs = Object.keys(args.params ?? {}).length > 0 || args.body?.account_id !== undefined || args.query?.account_id !== undefined;
        if (world.other && namesOurs) {
          checks.push(["another merchant's keys", await world.send(target, { ...base, auth: world.other, headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } }), (s) => s >= 400 && s < 500]);
        }
        world.byOperation.set(op, [...(world.byOperation.get(op) ?? []), ...checks.map((x) => x[1])]);
        const wrong = checks.filter(([, e, ok]) => !ok(e.status));
        if (wrong.length) failWith(`authentication was ignored: ${wrong.map((w) => w[0]).join(', ')}`, wrong.map((w) => w[1]));
      });
    }

    it(`${op} › unsupported_method`, async ({ skip }) => {
      const args = need(prepared, skip, 'no valid request');
      const e = await world.send(route, { params: args.params, method: 'PUT', body: {} });
      if (e.status !== 405 || !ErrorShape.safeParse(e.responseBody).success) failWith('PUT was not answered 405 in the error shape', [e]);
    });

    for (const check of RESPONSE_CHECKS.filter((r) => checks.includes(r))) {
      it(`${op} › ${check}`, ({ skip }) => {
        const exchanges = world.byOperation.get(op) ?? [];
        if (exchanges.length === 0) skip('no response of this route was recorded');
        const violations = exchanges.flatMap((e) => {
          const v = responseViolation(check, route, e);
          return v ? [{ e, v }] : [];
        });
        if (violations.length) failWith(`${violations.length} of ${exchanges.length} response(s) violate ${check}: ${violations[0]?.v}`, violations.slice(0, 3).map((x) => x.e));
      });
    }
  });
}

describe('flows', () => {
  const needSandbox = (skip: (note?: string) => void) => {
    if (!world.isSandbox) skip('creates payments and drives states through the /sandbox control API');
  };

  /** A flow test whose failure shows the last exchanges it made (request, response, curl). */
  const flow = (name: string, fn: (ctx: { skip: (note?: string) => void }) => Promise<void>) =>
    it(name, async (ctx) => {
      const mark = world.recorder.exchanges.length;
      try {
        await fn(ctx);
      } catch (error) {
        if ((error as Error).name === 'Unavailable' || (error as { constructor?: { name?: string } }).constructor?.name === 'PendingError') throw error;
        failWith((error as Error).message, world.recorder.since(mark).slice(-3));
      }
    });

  flow('createPayment › idempotency_replay › the same key gives the same status and body', async ({ skip }) => {
    needSandbox(skip);
    const body = world.paymentBody(await world.checkoutSession());
    const key = world.unique('replay');
    const first = await world.record('createPayment', () => callRoute(world.client, { domainKey: 'payments', name: 'create' }, { body, idempotencyKey: key }));
    const second = await world.record('createPayment', () => callRoute(world.client, { domainKey: 'payments', name: 'create' }, { body, idempotencyKey: key }));
    if (first.value.status !== second.value.status || JSON.stringify(first.value.body) !== JSON.stringify(second.value.body)) {
      failWith('a replay with the same key did not return the original response', [...first.exchanges, ...second.exchanges]);
    }
  });

  flow('refundTransaction › idempotency_in_flight › concurrent duplicates refund once', async ({ skip }) => {
    needSandbox(skip);
    const p = await world.payment({ value: 50 });
    const key = world.unique('inflight');
    const target = { method: 'POST', path: '/v1/payments/:id/transactions/:transaction_id/refund' };
    const send = () =>
      world.send(target, {
        params: { id: p.id, transaction_id: p.transactions?.id as string },
        body: { merchant_reference: 'in-flight', amount: { currency: 'ARS', value: 10 } },
        headers: { [IDEMPOTENCY_HEADER]: key, 'x-sandbox-provider-latency-ms': '200' },
      });
    const results = await Promise.all([send(), send(), send()]);
    const after = await world.client.payments.get({ params: { payment_id: p.id } });
    const okOrBusy = results.every((r) => r.status === 200 || (r.status === 400 && (r.responseBody as { code?: string }).code === 'REQUEST_IN_PROCESS'));
    if (after.amount.refunded !== 10 || !okOrBusy) failWith(`concurrent duplicates refunded ${after.amount.refunded} (expected 10)`, results);
  });

  flow('refundTransaction › state_transition › partial then full refund', async ({ skip }) => {
    needSandbox(skip);
    const p = await world.payment({ value: 40 });
    const ids = { id: p.id, transaction_id: p.transactions?.id as string };
    const partial = (await world.client.payments.refund({ params: ids, body: { merchant_reference: 'part', amount: { currency: 'ARS', value: 15 } } })) as Payment;
    expect([partial.status, partial.sub_status]).toEqual(['SUCCEEDED', 'PARTIALLY_REFUNDED']);
    const full = (await world.client.payments.refund({ params: ids, body: { merchant_reference: 'rest' } })) as Payment;
    expect([full.status, full.sub_status, full.transactions?.type]).toEqual(['REFUNDED', 'REFUNDED', 'REFUND']);
  });

  flow('cancelOrRefundPayment › state_transition › cancels uncaptured, refunds captured', async ({ skip }) => {
    needSandbox(skip);
    const auth = await world.authorizedPayment();
    const cancelled = await world.client.payments.cancelOrRefund({ params: { payment_id: auth.paymentId }, body: { reason: 'REQUESTED_BY_CUSTOMER' } });
    expect([cancelled.type, cancelled.payment.status]).toEqual(['CANCEL', 'CANCELED']);
    const captured = await world.capturedPayment();
    const refunded = await world.client.payments.cancelOrRefund({ params: { payment_id: captured.paymentId }, body: { reason: 'REQUESTED_BY_CUSTOMER' } });
    expect([refunded.type, refunded.payment.status]).toEqual(['REFUND', 'REFUNDED']);
  });

  flow('disputeChargeback › state_transition › evidence moves the payment to IN_DISPUTE/PENDING_REVIEW', async ({ skip }) => {
    needSandbox(skip);
    const cb = await world.chargeback();
    const disputed = await world.client.payments.dispute({ params: { payment_id: cb.paymentId, transaction_id: cb.transactionId }, body: world.evidence() });
    expect([disputed.status, disputed.sub_status, disputed.transactions?.type, disputed.transactions?.status]).toEqual(['IN_DISPUTE', 'PENDING_REVIEW', 'CHARGEBACK', 'CREATED']);
  });

  flow('reverseTransfer › state_transition › a full reversal ends REVERSED and refuses more', async ({ skip }) => {
    needSandbox(skip);
    const id = await world.transferId(20);
    const done = await world.client.marketplace.reverseTransfer({ params: { transfer_id: id }, body: { account_id: world.me.accountId } });
    expect(done.status).toBe('REVERSED');
    const again = await world.client.marketplace.raw.reverseTransfer({ params: { transfer_id: id }, body: { account_id: world.me.accountId } });
    expect(again.status).toBe(400);
  });

  flow('retrySubscriptionPayment › state_transition › a retry is refused once the latest payment succeeded', async ({ skip }) => {
    needSandbox(skip);
    const { id, token } = await world.declinedSubscription();
    await world.client.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['SUCCEEDED'] } });
    const ok = await world.client.subscriptions.retry({ params: { id } });
    expect(ok.status).toBe('ACTIVE');
    const refused = await world.client.subscriptions.raw.retry({ params: { id } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  flow('refundTransaction › amount_invariants › exact decimals and never more than captured', async ({ skip }) => {
    needSandbox(skip);
    const p = await world.payment({ value: 99.99 });
    const ids = { id: p.id, transaction_id: p.transactions?.id as string };
    let last: Payment | undefined;
    for (let i = 0; i < 3; i += 1) last = (await world.client.payments.refund({ params: ids, body: { merchant_reference: `third-${i}`, amount: { currency: 'ARS', value: 33.33 } } })) as Payment;
    expect(last?.amount.refunded).toBe(99.99);
    const more = await world.client.payments.raw.refund({ params: ids, body: { merchant_reference: 'extra', amount: { currency: 'ARS', value: 0.0001 } } });
    expect(more.status).toBe(400);
    const q = await world.payment({ value: 30 });
    const qIds = { id: q.id, transaction_id: q.transactions?.id as string };
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => world.client.payments.raw.refund({ params: qIds, body: { merchant_reference: `c-${i}`, amount: { currency: 'ARS', value: 10 } } })));
    const after = await world.client.payments.get({ params: { payment_id: q.id } });
    expect(after.amount.refunded).toBeLessThanOrEqual(after.amount.captured);
    expect(after.amount.refunded).toBe(10 * results.filter((r) => r.status === 200).length);
  });

  flow('reverseTransfer › amount_invariants › reversals never exceed the amount', async ({ skip }) => {
    needSandbox(skip);
    const id = await world.transferId(50);
    const results = await Promise.all(Array.from({ length: 8 }, () => world.client.marketplace.raw.reverseTransfer({ params: { transfer_id: id }, body: { account_id: world.me.accountId, amount: { currency: 'BRL', value: 10 } } })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
  });
});

describe('all', () => {
  /** Values the suite itself sent that must never come back whole. */
  const SECRETS = ['4111111111111111', '4507990000000002', '123-45-6789', '12-3456789', 'X1234567'];

  it('all › response_schema_conformance › no response violation reported by a validating proxy', ({ skip }) => {
    const reported = world.recorder.exchanges.filter((e) => e.violations !== null);
    if (reported.length === 0) skip('no validating proxy (such as Prism) in front of the server');
    const responseErrors = reported.filter((e) =>
      (JSON.parse(e.violations as string) as { location?: string[]; severity?: string }[]).some((v) => v.location?.[0] === 'response' && v.severity === 'Error'),
    );
    if (responseErrors.length) failWith(`${responseErrors.length} response(s) violate the OpenAPI document according to the proxy: ${responseErrors[0]?.violations}`, responseErrors.slice(0, 3));
  });

  it('all › masking › no full card number, tax id or document number in any response', () => {
    const leaks = world.recorder.exchanges.filter((e) => SECRETS.some((s) => e.responseText.includes(s)));
    if (leaks.length) failWith(`${leaks.length} response(s) contain a full card number, tax id or document number`, leaks.slice(0, 3));
    expect(world.recorder.exchanges.length).toBeGreaterThan(0);
  });
});
