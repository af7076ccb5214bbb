import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { contract, IDEMPOTENCY_HEADER, PUBLIC_KEY_HEADER, SECRET_KEY_HEADER, type Payment } from '@switchyard/contract';
import { fixtures as examples } from '@switchyard/contract/fixtures';
import type { AppRoute } from '@ts-rest/core';
import { configFromEnv } from '../config.js';
import { callRoute } from '../harness/call.js';
import { bodySchemaOf, checksOf, hasPathParams, MAXIMAL_LEAVES_OUT, NON_UUID_KEY, operationCases, successStatuses, THROWAWAY_TENANT_ROUTES, type CallArgs } from '../harness/cases.js';
import { maximalBody } from '../harness/maximal.js';
import { allViolations, medianMs, RESPONSE_CHECKS, responseViolation } from '../harness/checks.js';
import { invalidInput, mismatch, missingKey, ruleRefusal, unauthenticated, unknownResource, unsupportedMethod, type Expected } from '../harness/expect.js';
import { leaksIn, sentSecrets } from '../harness/masking.js';
import { isResponseError, parseProxyViolations, partialIsResponseError } from '../harness/proxy-violations.js';
import { deliveryProblems, startReceiver } from '../harness/receiver.js';
import { negativeCases, pickCases } from '../harness/negative.js';
import { describeExchange, REPLAYED_HEADER, type Exchange } from '../harness/recorder.js';
import { writeRecording } from '../harness/recording.js';
import { unavailableIn } from '../harness/unavailable.js';
import { World } from '../harness/world.js';

const world = new World(configFromEnv());
beforeAll(() => world.setup());
// A recorded run (--record) keeps every exchange, masked, for a later diff against another service.
afterAll(() => {
  const { recordFile, baseUrl, profile, seed } = world.config;
  if (recordFile) writeRecording(recordFile, { baseUrl, profile, seed }, world.recorder.exchanges);
});

/**
 * Why a check that threw could not run, if that is why it threw: a state it cannot have (no
 * control API, no fixture), or the request budget, used up (a client wraps that error in its own).
 */
function whyUnavailable(error: unknown): string | undefined {
  return unavailableIn(error)?.message ?? world.recorder.budgetUsedUp;
}

/** Runs `fn`, reporting an Unavailable state as a skip with its reason. */
async function orSkip<T>(skip: (note?: string) => void, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    const why = whyUnavailable(error);
    if (why) skip(why);
    throw error;
  }
}

/** A per-route check: a state or a request it cannot have (Unavailable: no control API, the budget used up) makes it a skip with the reason. */
function routeCheck(name: string, fn: (ctx: TestContext) => unknown) {
  it(name, async (ctx) => {
    try {
      await fn(ctx);
    } catch (error) {
      const why = whyUnavailable(error);
      if (why) ctx.skip(why);
      throw error;
    }
  });
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

/** Runs `fn` over `items`, a few at a time: the invalid requests of a route are independent of each other. */
async function inPool<T>(items: readonly T[], fn: (item: T) => Promise<void>, size = 8): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next] as T;
      next += 1;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
}

const ROUTES = operationCases(true).map((c) => ({ route: c.route, pattern: new RegExp(`^${c.route.path.replace(/:[a-z_]+/g, '[^/]+')}$`) }));

/** The contract route an exchange called, by method and path. */
function routeOf(e: Exchange): AppRoute | undefined {
  const path = new URL(e.url).pathname;
  return ROUTES.find((r) => r.route.method === e.method && r.pattern.test(path))?.route;
}

for (const c of operationCases(world.checksControlApi)) {
  const op = c.meta.operationId;
  const route = c.route;
  // Which of these tests exist comes from checksOf, which the runner also counts with.
  const checks = checksOf(c);
  describe(`${c.meta.domain} ${op}`, () => {
    let prepared: CallArgs | undefined;
    /** Why the valid request could not be made (a state only the control API or a fixture gives): the reason of every check that needs it. */
    let whyNot: string | undefined;
    const because = (what: string) => (whyNot ? `${what}: ${whyNot}` : what);
    /** The throwaway merchant a reset, an import or a key rotation acts on (its case makes one), instead of the suite's own. */
    const ownIdentity = () => (THROWAWAY_TENANT_ROUTES.has(c.key) && world.resetIdentity) || undefined;

    routeCheck(`${op} › positive_data_acceptance`, async ({ skip }) => {
      prepared = await orSkip(
        (note) => {
          whyNot = note;
          skip(note);
        },
        () => c.prepare(world),
      );
      const identity = ownIdentity();
      const client = identity ? world.clientFor(identity) : world.client;
      const { value, exchanges } = await world.record(op, () => callRoute(client, c, prepared as CallArgs));
      if (!isSuccess(value.status)) failWith(`a valid request was refused with ${value.status}`, exchanges);
    });

    const bodySchema = bodySchemaOf(c);
    /** Headers of a fresh attempt: the prepared ones, with an idempotency key of its own (a reused key would replay). */
    const freshHeaders = (args: CallArgs, key: string = crypto.randomUUID()) => ({ ...args.headers, ...(c.meta.idempotent || args.headers?.[IDEMPOTENCY_HEADER] ? { [IDEMPOTENCY_HEADER]: key } : {}) });

    if (bodySchema && checks.includes('negative_data_rejection')) {
      routeCheck(`${op} › negative_data_rejection`, async ({ skip }) => {
        if (world.config.maxNegative === 0) skip('--max-negative 0: no invalid body is sent');
        const args = need(prepared, skip, because('no valid request to derive invalid ones from'));
        const cases = pickCases(negativeCases(bodySchema, need(args.body, skip, 'the valid request has no body')), world.config.maxNegative, world.config.seed);
        const before = await world.snapshot(route, args);
        const failures: { why: string; e: Exchange }[] = [];
        await inPool(cases, async (n) => {
          const e = await world.send(route, { params: args.params, query: args.query, headers: freshHeaders(args), ...(n.raw ? { rawBody: n.body as string } : { body: n.body }) });
          world.attribute(op, [e]);
          const named = n.fields.length === 0 || ((e.responseBody as { messages?: unknown })?.messages as unknown[] | undefined)?.some((m) => typeof m === 'string' && n.fields.some((f) => m.includes(f)));
          const why = mismatch(e, invalidInput(c.meta, n.fields)) ?? (named ? undefined : `the error's messages name none of ${n.fields.join(', ')}`);
          if (why) failures.push({ why: `[${n.label}] ${why}`, e: { ...e, method: `${e.method} [${n.label}]` } });
        });
        const after = await world.snapshot(route, args);
        if (failures.length) failWith(`${failures.length} of ${cases.length} invalid request(s) were not refused as the contract says: ${failures.slice(0, 5).map((f) => f.why).join('; ')}`, failures.slice(0, 3).map((f) => f.e));
        if (before !== after) failWith(`${cases.length} refused invalid request(s) changed the state: before ${before.slice(0, 500)}, after ${after.slice(0, 500)}`, []);
      });
    }

    if (bodySchema && checks.includes('maximal_data_acceptance')) {
      routeCheck(`${op} › maximal_data_acceptance`, async ({ skip, annotate }) => {
        // A state of its own (the valid request's may be used up: a capture, a dispute); fixtures cannot give a second one.
        // A fixture's state may be used up by the valid request (a capture, a dispute); without fixtures every call makes a fresh one.
        if (world.usesIdFixtures && hasPathParams(c)) skip('needs a fresh state of its own, and the fixtures file names one state for both');
        const args = await orSkip(skip, () => c.prepare(world));
        const { body, added, excluded } = maximalBody(bodySchema, need(args.body, skip, 'the valid request has no body'), await world.knownIds(), MAXIMAL_LEAVES_OUT[c.key]);
        const e = await world.send(route, { params: args.params, query: args.query, body, headers: freshHeaders(args), auth: ownIdentity() });
        world.attribute(op, [e]);
        const refused = bodySchema.safeParse(body).success ? undefined : 'the runner could not derive a maximal body the contract accepts';
        const wrong = refused ?? (successStatuses(route).includes(e.status) ? undefined : `a valid request with every optional field (${added.length} added) answered ${e.status}, expected ${successStatuses(route).join(' or ')}`);
        const violations = allViolations(route, e);
        if (wrong || violations.length) failWith([wrong, ...violations].filter(Boolean).join('; '), [e]);
        await annotate(`${added.length} optional field(s) added${excluded.length ? `; left out: ${excluded.map((x) => `${x.field} (${x.why})`).join('; ')}` : ''}`);
      });
    }

    routeCheck(`${op} › missing_required_header`, async ({ skip }) => {
      const args = need(prepared, skip, because('no valid request'));
      const base = { params: args.params, query: args.query, body: args.body };
      const key = { [IDEMPOTENCY_HEADER]: crypto.randomUUID() };
      const attempts: [string, Exchange, Expected][] = [];
      if (c.key !== 'sandbox.createMerchant') {
        attempts.push(['without public-api-key', await world.send(route, { ...base, auth: null, headers: { [SECRET_KEY_HEADER]: world.me.secretKey, ...key } }), unauthenticated(c.meta, 'missing')]);
        attempts.push(['without private-secret-key', await world.send(route, { ...base, auth: null, headers: { [PUBLIC_KEY_HEADER]: world.me.publicKey, ...key } }), unauthenticated(c.meta, 'missing')]);
      }
      if (c.meta.idempotent) attempts.push(['without x-idempotency-key', await world.send(route, base), missingKey(c.meta)]);
      world.attribute(op, attempts.map((a) => a[1]));
      if (attempts.length === 0) skip('the route takes no required header');
      const wrong = attempts.flatMap(([what, e, expected]) => {
        const why = mismatch(e, expected);
        return why ? [{ what: `${what}: ${why}`, e }] : [];
      });
      if (wrong.length) failWith(`missing headers were not refused as the contract says: ${wrong.map((w) => w.what).join('; ')}`, wrong.map((w) => w.e));
    });

    if (checks.includes('ignored_auth')) {
      routeCheck(`${op} › ignored_auth`, async ({ skip }) => {
        const args = need(prepared, skip, because('no valid request'));
        const base = { params: args.params, query: args.query, body: args.body };
        const attempts: [string, Exchange, (e: Exchange) => string | undefined][] = [
          ['no keys', await world.send(route, { ...base, auth: null, headers: freshHeaders(args) }), (e) => mismatch(e, unauthenticated(c.meta, 'missing'))],
          ['wrong keys', await world.send(route, { ...base, auth: { publicKey: 'sandbox_pk_wrong', secretKey: 'sandbox_sk_wrong', accountId: '' }, headers: freshHeaders(args) }), (e) => mismatch(e, unauthenticated(c.meta, 'wrong'))],
        ];
        // Another merchant's keys must not reach what the request names: our resources (path) or our account.
        const namesOurs = Object.keys(args.params ?? {}).length > 0 || args.body?.account_id !== undefined || args.query?.account_id !== undefined;
        if (world.other && namesOurs) {
          attempts.push(["another merchant's keys", await world.send(route, { ...base, auth: world.other, headers: freshHeaders(args) }), (e) => (e.status >= 400 && e.status < 500 ? undefined : `answered ${e.status}`)]);
        }
        world.attribute(op, attempts.map((x) => x[1]));
        const wrong = attempts.flatMap(([what, e, judge]) => {
          const why = judge(e);
          return why ? [{ what: `${what}: ${why}`, e }] : [];
        });
        if (wrong.length) failWith(`authentication was ignored: ${wrong.map((w) => w.what).join('; ')}`, wrong.map((w) => w.e));
      });
    }

    routeCheck(`${op} › unsupported_method`, async ({ skip }) => {
      const args = need(prepared, skip, because('no valid request'));
      const e = await world.send(route, { params: args.params, method: 'PUT', body: {} });
      const why = mismatch(e, unsupportedMethod);
      if (why) failWith(`PUT was not refused as the contract says: ${why}`, [e]);
    });

    if (checks.includes('unknown_resource')) {
      routeCheck(`${op} › unknown_resource`, async ({ skip }) => {
        const args = need(prepared, skip, because('no valid request'));
        const expected = unknownResource(route);
        const wrong: { why: string; e: Exchange }[] = [];
        // Each id of the path in turn names nothing, the others stay valid.
        for (const name of Object.keys(args.params ?? {})) {
          const e = await world.send(route, { params: { ...args.params, [name]: crypto.randomUUID() }, query: args.query, body: args.body, headers: freshHeaders(args) });
          world.attribute(op, [e]);
          const why = mismatch(e, expected);
          if (why) wrong.push({ why: `an unknown ${name}: ${why}`, e });
        }
        if (wrong.length) failWith(wrong.map((w) => w.why).join('; '), wrong.map((w) => w.e));
      });
    }

    if (checks.includes('idempotency_key_format')) {
      routeCheck(`${op} › idempotency_key_format`, async ({ skip }) => {
        const args = need(prepared, skip, because('no valid request'));
        const before = await world.snapshot(route, args);
        const e = await world.send(route, { params: args.params, query: args.query, body: args.body, headers: { ...args.headers, [IDEMPOTENCY_HEADER]: NON_UUID_KEY } });
        world.attribute(op, [e]);
        // Spec §5: the key of 4.4 and 4.8 is a UUID.
        const why = mismatch(e, invalidInput(c.meta)) ?? ((e.responseBody as { messages?: string[] }).messages?.some((m) => m.includes(IDEMPOTENCY_HEADER)) ? undefined : `the error's messages do not name ${IDEMPOTENCY_HEADER}`);
        if (why) failWith(`a key that is not a UUID was not refused (spec §5): ${why}`, [e]);
        if ((await world.snapshot(route, args)) !== before) failWith('a request refused for its key changed the state', [e]);
      });
    }

    for (const check of RESPONSE_CHECKS.filter((r) => checks.includes(r))) {
      routeCheck(`${op} › ${check}`, ({ skip }) => {
        const exchanges = world.byOperation.get(op) ?? [];
        if (exchanges.length === 0) skip(because('no response of this route was recorded'));
        const violations = exchanges.flatMap((e) => {
          const v = responseViolation(check, route, e);
          return v ? [{ e, v }] : [];
        });
        if (violations.length) failWith(`${violations.length} of ${exchanges.length} response(s) violate ${check}: ${violations[0]?.v}`, violations.slice(0, 3).map((x) => x.e));
      });
    }

    routeCheck(`${op} › latency_budget`, async ({ skip, annotate }) => {
      const exchanges = world.byOperation.get(op) ?? [];
      if (exchanges.length === 0) skip(because('no response of this route was recorded'));
      const median = medianMs(exchanges);
      const budget = world.config.latencyBudgetMs;
      if (median > budget) failWith(`the median answer of ${exchanges.length} took ${Math.round(median)} ms, over the budget of ${budget} ms (--latency-budget-ms)`, exchanges.slice(0, 1));
      await annotate(`median ${Math.round(median)} ms of ${exchanges.length} answer(s), budget ${budget} ms`);
    });
  });
}

describe('flows', () => {
  /** What only the /sandbox control API can do (play a payer, script an outcome): said as the reason of the skip on staging. */
  const needSandbox = (skip: (note?: string) => void, what: string) => {
    if (!world.isSandbox) skip(`${what} needs the /sandbox control API`);
  };

  /** A flow test whose failure shows the last exchanges it made (request, response, curl). */
  const flow = (name: string, fn: (ctx: { skip: (note?: string) => void }) => Promise<void>) =>
    it(name, async (ctx) => {
      const mark = world.recorder.exchanges.length;
      try {
        await fn(ctx);
      } catch (error) {
        const why = whyUnavailable(error);
        if (why) ctx.skip(why);
        if ((error as { constructor?: { name?: string } }).constructor?.name === 'PendingError') throw error;
        failWith((error as Error).message, world.recorder.since(mark).slice(-3));
      }
      // Every answer the flow got passes the same per-response checks as the routes' own.
      const wrong = world.recorder.since(mark).flatMap((e) => {
        const r = routeOf(e);
        const v = r ? allViolations(r, e) : [];
        return v.length ? [{ e, v }] : [];
      });
      if (wrong.length) failWith(`${wrong.length} answer(s) of the flow fail the per-response checks: ${wrong[0]?.v.join('; ')}`, wrong.slice(0, 3).map((w) => w.e));
    });

  const createPayment = (body: unknown, key: string) => world.send(contract.payments.create, { body, headers: { [IDEMPOTENCY_HEADER]: key } });
  const paymentIds = (p: Payment) => ({ id: p.id, transaction_id: p.transactions?.id as string });

  flow('createPayment › idempotency_replay › the same key gives the same status and body, with the replay header', async () => {
    const body = world.paymentBody(await world.checkoutSession());
    const key = world.unique('replay');
    const first = await createPayment(body, key);
    const second = await createPayment(body, key);
    world.attribute('createPayment', [first, second]);
    if (first.status !== second.status || JSON.stringify(first.responseBody) !== JSON.stringify(second.responseBody)) failWith('a replay with the same key did not return the original response', [first, second]);
    if (second.responseHeaders[REPLAYED_HEADER] !== 'true') failWith(`a replay did not say so with ${REPLAYED_HEADER}: true (got ${second.responseHeaders[REPLAYED_HEADER] ?? 'no header'})`, [second]);
    if (first.responseHeaders[REPLAYED_HEADER] === 'true') failWith(`the first answer says ${REPLAYED_HEADER}: true`, [first]);
  });

  flow('createPayment › idempotency_replay › a replay after the payment changed returns the original answer', async () => {
    const body = world.paymentBody(await world.checkoutSession());
    const key = world.unique('replay-changed');
    const first = await createPayment(body, key);
    const p = first.responseBody as Payment;
    await world.client.payments.refund({ params: paymentIds(p), body: { merchant_reference: 'changed', amount: { currency: 'ARS', value: 1 } } });
    const second = await createPayment(body, key);
    world.attribute('createPayment', [first, second]);
    if (first.status !== second.status || JSON.stringify(first.responseBody) !== JSON.stringify(second.responseBody)) failWith('a replay after the payment was refunded did not return the original answer', [first, second]);
  });

  flow('createPayment › idempotency_replay › the same key with another valid body never creates a second payment', async () => {
    const key = world.unique('replay-mismatch');
    // Each body valid on its own (a checkout session of its own), so only the key can explain a refusal.
    const send = async (value: number) => createPayment(world.paymentBody(await world.checkoutSession(value), { value }), key);
    const first = await send(99.99);
    const second = await send(12.34);
    world.attribute('createPayment', [first, second]);
    const firstId = (first.responseBody as Payment).id;
    const secondId = (second.responseBody as { id?: string } | null)?.id;
    // Either a refusal or the original answer again (upstream and the sandbox replay it, ignoring the body); never a new resource under a used key.
    if (isSuccess(second.status) && secondId !== firstId) failWith(`the same key with another body created a second payment (${secondId}, first ${firstId})`, [first, second]);
  });

  flow('createPayment › idempotency_in_flight › concurrent duplicates create one payment', async () => {
    const body = world.paymentBody(await world.checkoutSession(21), { value: 21 });
    const key = world.unique('inflight-create');
    const results = await world.recorder.racing(() => Promise.all(Array.from({ length: 4 }, () => createPayment(body, key))));
    world.attribute('createPayment', results);
    const ids = new Set(results.filter((r) => isSuccess(r.status)).map((r) => (r.responseBody as Payment).id));
    const okOrBusy = results.every((r) => isSuccess(r.status) || (r.status === 400 && (r.responseBody as { code?: string }).code === 'REQUEST_IN_PROCESS'));
    if (ids.size !== 1 || !okOrBusy) failWith(`4 concurrent requests with one key gave ${ids.size} payment(s); each must be the payment or REQUEST_IN_PROCESS`, results);
  });

  flow('createWebhook › webhook_delivery › every delivery is signed over its exact bytes and is an event of the contract', async ({ skip }) => {
    // The server under test must reach the runner's receiver: a local sandbox does, a staging does not.
    if (!world.isSandbox) skip("a staging cannot reach the runner's local webhook receiver");
    const receiver = await startReceiver();
    try {
      const secret = `whsec-${world.unique('conformance')}`;
      await world.client.webhooks.create({ body: { ...examples.createWebhook(receiver.url), account_id: world.me.accountId, name: world.unique('receiver'), hmac_client_secret: secret, payment_triggers: ['PURCHASE'] } });
      await world.payment();
      // Bounded by time, not a speed check: a loaded target (or runner) may take many seconds to deliver.
      const deliveries = await receiver.waitFor(1, 45_000);
      const problems = deliveries.flatMap((d, i) => deliveryProblems(d, secret).map((p) => `delivery ${i + 1}: ${p}`));
      if (problems.length) failWith(`${problems.length} problem(s) with ${deliveries.length} webhook delivery(ies): ${problems.slice(0, 5).join('; ')}\nfirst delivery: ${deliveries[0]?.raw.toString('utf8').slice(0, 1000)}`, []);
    } finally {
      await receiver.close();
    }
  });

  // The spec's business rules, each refused with the contract's code for it and leaving the state as it was.
  flow('createCustomer › business_rules › a duplicate merchant_customer_id is refused', async () => {
    // Spec §2.2: merchant_customer_id is the merchant's own identifier of the customer, so one per
    // customer; upstream answers a second one CUSTOMER_ID_DUPLICATED (400, upstream's notes "Errors").
    const route = contract.customers.create;
    const body = { ...examples.createCustomer(), merchant_customer_id: world.unique('dup') };
    const first = await world.send(route, { body });
    const second = await world.send(route, { body: { ...body, first_name: 'Another' } });
    world.attribute('createCustomer', [first, second]);
    if (first.status !== 201) failWith(`the first customer was refused with ${first.status}`, [first]);
    const why = mismatch(second, ruleRefusal('CUSTOMER_ID_DUPLICATED', 'a second customer with the same merchant_customer_id'));
    if (why) failWith(`a duplicate merchant_customer_id was not refused (spec §2.2, §4.11): ${why}`, [first, second]);
  });

  flow('disputeChargeback › business_rules › evidence on a transaction that is not a chargeback is refused', async () => {
    // Spec §3: a dispute is submitted when "chargeback transaction exists"; §4.9 disputes a
    // chargeback. Evidence on the purchase itself is refused INVALID_TRANSACTION (400).
    const purchase = await world.capturedPayment();
    const args = { params: { payment_id: purchase.paymentId, transaction_id: purchase.transactionId } };
    const route = contract.payments.dispute;
    const before = await world.snapshot(route, args);
    const e = await world.send(route, { ...args, body: world.evidence(), headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } });
    world.attribute('disputeChargeback', [e]);
    const why = mismatch(e, ruleRefusal('INVALID_TRANSACTION', 'evidence on a transaction that is not a chargeback'));
    if (why) failWith(`dispute evidence on a non-chargeback transaction was not refused (spec §3, §4.9): ${why}`, [e]);
    if ((await world.snapshot(route, args)) !== before) failWith('refused evidence changed the payment', [e]);
  });

  flow('refundTransaction › idempotency_in_flight › concurrent duplicates refund once', async () => {
    const p = await world.payment({ value: 50 });
    const key = world.unique('inflight');
    const send = () =>
      world.send(contract.payments.refund, {
        params: paymentIds(p),
        body: { merchant_reference: 'in-flight', amount: { currency: 'ARS', value: 10 } },
        // The sandbox holds its provider call so that the duplicates meet it in flight; a staging takes its own time.
        headers: { [IDEMPOTENCY_HEADER]: key, ...(world.isSandbox ? { 'x-sandbox-provider-latency-ms': '200' } : {}) },
      });
    const results = await world.recorder.racing(() => Promise.all([send(), send(), send()]));
    world.attribute('refundTransaction', results);
    const after = await world.client.payments.get({ params: { payment_id: p.id } });
    const okOrBusy = results.every((r) => r.status === 200 || (r.status === 400 && (r.responseBody as { code?: string }).code === 'REQUEST_IN_PROCESS'));
    if (after.amount.refunded !== 10 || !okOrBusy) failWith(`concurrent duplicates refunded ${after.amount.refunded} (expected 10)`, results);
  });

  flow('refundTransaction › state_transition › partial then full refund', async () => {
    const p = await world.payment({ value: 40 });
    const partial = (await world.client.payments.refund({ params: paymentIds(p), body: { merchant_reference: 'part', amount: { currency: 'ARS', value: 15 } } })) as Payment;
    expect([partial.status, partial.sub_status, partial.amount.refunded]).toEqual(['SUCCEEDED', 'PARTIALLY_REFUNDED', 15]);
    const full = (await world.client.payments.refund({ params: paymentIds(p), body: { merchant_reference: 'rest' } })) as Payment;
    expect([full.status, full.sub_status, full.transactions?.type, full.amount.refunded]).toEqual(['REFUNDED', 'REFUNDED', 'REFUND', 40]);
    const read = await world.client.payments.get({ params: { payment_id: p.id } });
    expect([read.status, read.sub_status, read.amount.refunded]).toEqual(['REFUNDED', 'REFUNDED', 40]);
  });

  flow('captureAuthorization › state_transition › authorize, capture in full, a second capture refused', async () => {
    const p = await world.payment({ value: 30, capture: false });
    expect([p.status, p.sub_status, p.amount.captured]).toEqual(['PENDING', 'AUTHORIZED', 0]);
    const params = { payment_id: p.id, transaction_id: p.transactions?.id as string };
    const captured = await world.client.payments.capture({ params, body: { ...examples.capture(), amount: { currency: 'ARS', value: 30 } } });
    expect([captured.type, captured.status, captured.amount.captured]).toEqual(['CAPTURE', 'SUCCEEDED', 30]);
    const read = await world.client.payments.get({ params: { payment_id: p.id } });
    expect([read.status, read.sub_status, read.amount.captured]).toEqual(['SUCCEEDED', 'CAPTURED', 30]);
    const again = await world.send(contract.payments.capture, { params, body: { ...examples.capture(), amount: { currency: 'ARS', value: 30 } }, headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } });
    world.attribute('captureAuthorization', [again]);
    const why = mismatch(again, ruleRefusal('INVALID_STATE', 'a second capture'));
    if (why) failWith(`a second capture of a captured payment was not refused (spec §3): ${why}`, [again]);
  });

  flow('cancelOrRefundPayment › state_transition › cancels uncaptured, refunds captured', async () => {
    const auth = await world.payment({ capture: false });
    const cancelled = await world.client.payments.cancelOrRefund({ params: { payment_id: auth.id }, body: { reason: 'REQUESTED_BY_CUSTOMER' } });
    expect([cancelled.type, cancelled.payment.status]).toEqual(['CANCEL', 'CANCELED']);
    const captured = await world.payment();
    const refunded = await world.client.payments.cancelOrRefund({ params: { payment_id: captured.id }, body: { reason: 'REQUESTED_BY_CUSTOMER' } });
    expect([refunded.type, refunded.payment.status]).toEqual(['REFUND', 'REFUNDED']);
  });

  flow('createPayment › state_transition › a declining test card gives a DECLINED payment that cannot be refunded', async () => {
    const p = await world.payment({ card: world.cards.declined, value: 12 });
    expect([p.status, p.amount.captured]).toEqual(['DECLINED', 0]);
    const refund = await world.send(contract.payments.refund, { params: paymentIds(p), body: { merchant_reference: 'declined', amount: { currency: 'ARS', value: 1 } }, headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } });
    world.attribute('refundTransaction', [refund]);
    if (refund.status < 400 || refund.status >= 500) failWith(`a refund of a declined payment answered ${refund.status}`, [refund]);
  });

  flow('createCustomer › state_transition › a customer, its session, a card enrolled in it and one vaulted for it', async () => {
    const created = await world.client.customers.create({ body: { ...examples.createCustomer(), merchant_customer_id: world.unique('life') } });
    const read = await world.client.customers.get({ params: { customer_id: created.id } });
    expect(read).toEqual(created);
    const session = await world.client.customers.createSession({ body: { account_id: world.me.accountId, country: 'AR', customer_id: created.id } });
    expect(session.customer_id).toBe(created.id);
    expect(Date.parse(session.expires_at as string)).toBeGreaterThan(Date.parse(session.created_at as string));
    const enrolled = await world.client.paymentMethods.enrollInSession({ params: { customer_session: session.customer_session }, body: { ...examples.enrollInSession(), account_id: world.me.accountId } });
    expect(enrolled.type).toBe('CARD');
    const card = examples.enrollDirect();
    const vaulted = await world.client.paymentMethods.enrollDirect({ params: { customer_id: created.id }, body: { ...card, account_id: world.me.accountId, card_data: { ...card.card_data!, number: world.cards.approved } } });
    expect([vaulted.status, typeof vaulted.vaulted_token]).toEqual(['ENROLLED', 'string']);
    const subscription = await world.client.subscriptions.create({ body: { ...examples.createSubscription(vaulted.vaulted_token), account_id: world.me.accountId } });
    expect((await world.client.subscriptions.get({ params: { id: subscription.id } })).id).toBe(subscription.id);
  });

  flow('createCheckoutSession › state_transition › a session is paid for its amount and the payment names it', async () => {
    const session = await world.client.checkout.createSession({ body: { ...examples.createCheckoutSession(), account_id: world.me.accountId, amount: { currency: 'ARS', value: 45.5 } } });
    const p = await world.client.payments.create({ body: world.paymentBody(session.checkout_session, { value: 45.5 }) });
    expect([p.status, p.checkout?.session, p.amount.value, p.amount.captured]).toEqual(['SUCCEEDED', session.checkout_session, 45.5, 45.5]);
    expect((await world.client.payments.get({ params: { payment_id: p.id } })).checkout?.session).toBe(session.checkout_session);
  });

  flow('createPaymentLink › state_transition › a link answers what it was made with, and each link is its own', async () => {
    const body = { ...examples.createPaymentLink(), account_id: world.me.accountId, availability: { finish_at: '2099-01-01T00:00:00Z' } };
    const [a, b] = [await world.client.checkout.createPaymentLink({ body }), await world.client.checkout.createPaymentLink({ body: { ...body, merchant_order_id: world.unique('link') } })];
    expect([a.amount, a.description, a.availability?.finish_at, a.account_id]).toEqual([body.amount, body.description, '2099-01-01T00:00:00Z', world.me.accountId]);
    expect(a.id).not.toBe(b.id);
    expect(a.code).not.toBe(b.code);
  });

  flow('disputeChargeback › state_transition › evidence moves the payment to IN_DISPUTE/PENDING_REVIEW', async () => {
    const cb = await world.chargeback();
    const disputed = await world.client.payments.dispute({ params: { payment_id: cb.paymentId, transaction_id: cb.transactionId }, body: world.evidence() });
    expect([disputed.status, disputed.sub_status, disputed.transactions?.type, disputed.transactions?.status]).toEqual(['IN_DISPUTE', 'PENDING_REVIEW', 'CHARGEBACK', 'CREATED']);
  });

  flow('reverseTransfer › state_transition › a full reversal ends REVERSED and refuses more', async () => {
    const id = await world.transferId(20);
    const done = await world.client.marketplace.reverseTransfer({ params: { transfer_id: id }, body: { account_id: world.me.accountId } });
    expect(done.status).toBe('REVERSED');
    const again = await world.client.marketplace.raw.reverseTransfer({ params: { transfer_id: id }, body: { account_id: world.me.accountId } });
    expect(again.status).toBe(400);
  });

  flow('retrySubscriptionPayment › state_transition › a retry is refused once the latest payment succeeded', async ({ skip }) => {
    needSandbox(skip, 'scripting the outcome of a subscription payment');
    const { id, token } = await world.declinedSubscription();
    await world.client.sandbox.scriptOutcomes({ params: { vaulted_token: token }, body: { sequence: ['SUCCEEDED'] } });
    const ok = await world.client.subscriptions.retry({ params: { id } });
    expect(ok.status).toBe('ACTIVE');
    const refused = await world.client.subscriptions.raw.retry({ params: { id } });
    expect(refused).toMatchObject({ status: 400, body: { code: 'INVALID_REQUEST' } });
  });

  flow('refundTransaction › amount_invariants › exact decimals and never more than captured', async () => {
    const p = await world.payment({ value: 99.99 });
    let last: Payment | undefined;
    for (let i = 0; i < 3; i += 1) {
      last = (await world.client.payments.refund({ params: paymentIds(p), body: { merchant_reference: `third-${i}`, amount: { currency: 'ARS', value: 33.33 } } })) as Payment;
      // After each refund: the exact sum so far, partial until the whole amount is back.
      expect([last.amount.refunded, last.status, last.sub_status]).toEqual(i < 2 ? [Number((33.33 * (i + 1)).toFixed(2)), 'SUCCEEDED', 'PARTIALLY_REFUNDED'] : [99.99, 'REFUNDED', 'REFUNDED']);
    }
    const more = await world.send(contract.payments.refund, { params: paymentIds(p), body: { merchant_reference: 'extra', amount: { currency: 'ARS', value: 0.0001 } }, headers: { [IDEMPOTENCY_HEADER]: crypto.randomUUID() } });
    world.attribute('refundTransaction', [more]);
    expect(more.status).toBe(400);
    const q = await world.payment({ value: 30 });
    const results = await world.recorder.racing(() => Promise.all(Array.from({ length: 8 }, (_, i) => world.client.payments.raw.refund({ params: paymentIds(q), body: { merchant_reference: `c-${i}`, amount: { currency: 'ARS', value: 10 } } }))));
    const after = await world.client.payments.get({ params: { payment_id: q.id } });
    expect(after.amount.refunded).toBeLessThanOrEqual(after.amount.captured);
    expect(after.amount.refunded).toBe(10 * results.filter((r) => r.status === 200).length);
  });

  flow('reverseTransfer › amount_invariants › reversals never exceed the amount', async () => {
    const id = await world.transferId(50);
    const results = await world.recorder.racing(() => Promise.all(Array.from({ length: 8 }, () => world.client.marketplace.raw.reverseTransfer({ params: { transfer_id: id }, body: { account_id: world.me.accountId, amount: { currency: 'BRL', value: 10 } } }))));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
  });
});

describe('all', () => {
  it('all › proxy_schema_validation › no response violation reported by a validating proxy', ({ skip }) => {
    const reported = world.recorder.exchanges.filter((e) => e.violations !== null);
    if (reported.length === 0) skip('no validating proxy (such as Prism) in front of the server');
    // Prism cuts a header above 8 KB short: what it holds is still read, and the cut is said.
    const read = reported.map((e) => ({ e, report: parseProxyViolations(e.violations as string) }));
    const responseErrors = read.filter(({ report }) => report.violations.some(isResponseError) || partialIsResponseError(report.partial));
    if (responseErrors.length) {
      const [first] = responseErrors;
      const shown = first ? [...first.report.violations.filter(isResponseError).slice(0, 5).map((v) => JSON.stringify(v)), ...(first.report.truncated ? ['(the proxy cut its header short: more violations may exist)'] : [])] : [];
      failWith(`${responseErrors.length} response(s) violate the OpenAPI document according to the proxy: ${shown.join('; ')}`, responseErrors.slice(0, 3).map((r) => r.e));
    }
  });

  it('all › masking › no full card number, tax id or document number, and no security code, anywhere in any response', () => {
    const sent = sentSecrets(world.recorder.exchanges);
    const leaks = world.recorder.exchanges.flatMap((e) => {
      const found = leaksIn(e.responseBody, sent);
      return found.length ? [{ e, found }] : [];
    });
    if (leaks.length) failWith(`${leaks.length} response(s) leak secrets: ${leaks[0]?.found.slice(0, 3).join('; ')}`, leaks.slice(0, 3).map((l) => l.e));
    expect(world.recorder.exchanges.length).toBeGreaterThan(0);
  });
});
