import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERROR_MESSAGES, MAX_MESSAGE_LENGTH, type Snapshot, type SnapshotRecord } from '@switchyard/contract';
import { clientsFor, newMerchant, type Clients } from '../test-support/harness.js';
import { buildEveryKind } from '../test-support/snapshot-world.js';
import { MEMORY, sandboxOn, storesUnderTest } from '../test-support/stores.js';
import { DEFAULT_LIMITS } from '../tenant-limits.js';
import type { RecordKind } from '../store/types.js';
import { checkSnapshotRecords } from './snapshot-checks.js';
import { STORED_RULES } from './stored-records.js';

/** A low bound of charges per billing run, so a test sees it reached. */
const CHARGES = 12;
/**
 * Building the world and checking 20,000 records take seconds on an idle machine, and passed 60 s
 * with two other test suites running beside this one: a hang detector, not a measure.
 */
const SLOW_STEP_TIMEOUT_MS = 600_000;
/** An id no record of the snapshot has. */
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

type Data = Record<string, unknown>;

async function exported(clients: Clients): Promise<Snapshot> {
  const res = await clients.sandbox.exportSnapshot();
  if (res.status !== 200) throw new Error(`export: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The snapshot with the first record of `kind` that `pick` takes changed by `change`. */
function tampered(snapshot: Snapshot, kind: string, change: (data: Data) => Data, pick: (data: Data) => boolean = () => true): Snapshot {
  const i = snapshot.records.findIndex((r) => r.kind === kind && pick(r.data));
  if (i < 0) throw new Error(`no ${kind} to change`);
  const records = [...snapshot.records];
  const record = records[i] as SnapshotRecord;
  records[i] = { ...record, data: change(structuredClone(record.data)) };
  return { ...snapshot, records };
}

const at = (data: Data, path: string): Data => path.split('.').reduce((d, k) => d[k] as Data, data);
const units = (data: Data, field: string) => data[field] as number;
const transactions = (p: Data) => p.transactions as Data[];

/**
 * Records the API could not have written, one rule each, by kind: a wrong type, a value out of
 * range, a broken invariant, a record named that the snapshot does not hold. Each is refused
 * naming its record and the field (`field`, the start of what follows the record in the message).
 */
const BROKEN: [kind: RecordKind, broken: string, change: (d: Data) => Data, field: string, pick?: (d: Data) => boolean][] = [
  ['customer', 'a name that is no string', (c) => ({ ...c, first_name: 5 }), "its answer's first_name must be string"],
  ['customer', 'a merchant_customer_id other than its unique key', (c) => ({ ...c, merchant_customer_id: 'someone-else' }), 'data is kept under the unique key'],
  ['customer', 'data naming another id', (c) => ({ ...c, id: UNKNOWN }), 'data names the id'],
  ['customer_session', 'an expiry that does not parse', (s) => ({ ...s, expires_at: 'soon' }), 'data.expires_at must be a valid ISO 8601 date-time'],
  ['customer_session', 'a customer the snapshot does not hold', (s) => ({ ...s, customer_id: UNKNOWN }), 'data.customer_id names a customer the snapshot does not hold'],
  ['checkout_session', 'an amount finer than 0.0001', (s) => ({ ...s, resource: { ...at(s, 'resource'), amount: { currency: 'ARS', value: 1.00001 } } }), 'data.resource.amount.value must be a multiple of 0.0001'],
  ['checkout_session', 'a payment the snapshot does not hold', (s) => ({ ...s, payment_id: UNKNOWN }), 'data.payment_id names a payment', (s) => s.payment_id !== null],
  ['payment_link', 'an amount past the largest', (l) => ({ ...l, amount: { currency: 'ARS', value: 1e12 } }), 'data.amount.value must be at most'],
  ['payment_link', 'a status no link takes', (l) => ({ ...l, status: 'LOST' }), 'data.status must be one of'],
  ['payment_link', 'a code other than its unique key', (l) => ({ ...l, code: 'another-code' }), 'data is kept under the unique key'],
  ['payment_link', 'an account not in the snapshot', (l) => ({ ...l, account_id: UNKNOWN }), 'data.account_id "'],
  ['payment', 'a fraction of a unit of money', (p) => ({ ...p, captured_units: 1.5 }), 'data.captured_units must be integer'],
  ['payment', 'a transaction amount that is no number', (p) => ({ ...p, transactions: [{ ...transactions(p)[0], amount_units: 'ten' }, ...transactions(p).slice(1)] }), 'data.transactions[0].amount_units must be number'],
  ['payment', 'refunds past what was captured', (p) => ({ ...p, refunded_units: units(p, 'captured_units') + 1 }), 'data.refunded_units refunded and charged back together pass what was captured', (p) => units(p, 'refunded_units') > 0],
  ['payment', 'a REFUNDED status with part of it refunded', (p) => ({ ...p, status: 'REFUNDED', sub_status: 'REFUNDED' }), 'data.status is REFUNDED only', (p) => units(p, 'refunded_units') > 0],
  ['payment', 'a refunded total its refunds do not make', (p) => ({ ...p, transactions: transactions(p).map((t) => (t.type === 'REFUND' ? { ...t, status: 'ERROR' } : t)) }), 'data.refunded_units is not the sum of the succeeded refunds', (p) => units(p, 'refunded_units') > 0],
  ['payment', 'an open refund of no pending refund', (p) => ({ ...p, refund_in_progress: { transaction_id: UNKNOWN, amount_units: 1 } }), 'data.refund_in_progress names no pending refund'],
  ['payment', 'an open dispute on a payment not IN_DISPUTE', (p) => ({ ...p, status: 'SUCCEEDED' }), 'data.status is IN_DISPUTE exactly while a dispute is open', (p) => p.dispute !== null],
  ['payment', 'a PIX payment kept as a card pays', (p) => ({ ...p, payment_method: { ...at(p, 'payment_method'), alternative: { ...at(p, 'payment_method.alternative'), flow: 'card' } } }), 'data.payment_method.alternative is not how PIX pays', (p) => at(p, 'payment_method').alternative !== null],
  ['payment', 'a checkout session the snapshot does not hold', (p) => ({ ...p, checkout_session: UNKNOWN }), 'data.checkout_session names a checkout_session', (p) => p.checkout_session !== null],
  ['payment', 'a vaulted token of no payment method', (p) => ({ ...p, payment_method: { ...at(p, 'payment_method'), vaulted_token: UNKNOWN } }), 'data.payment_method.vaulted_token names a payment_method'],
  ['payer_page', 'a payment the snapshot does not hold', (page) => ({ ...page, payment_id: UNKNOWN }), 'data.payment_id names a payment'],
  ['payment_method', 'a flow the sandbox has none of', (m) => ({ ...m, flow: 'telepathy' }), 'data.flow must be one of'],
  ['payment_method', 'a scripted outcome no control route takes', (m) => ({ ...m, scripted_outcomes: ['MAYBE'] }), 'data.scripted_outcomes[0] must be one of'],
  ['payment_method', 'a customer the snapshot does not hold', (m) => ({ ...m, customer_id: UNKNOWN }), 'data.customer_id names a customer'],
  ['subscription', 'a frequency of 0 with a past next_at, which billed without end', (s) => ({ ...s, frequency: { type: 'DAY', value: 0 }, next_at: '2000-01-01T00:00:00.000Z' }), 'data.frequency.value must be at least 1'],
  ['subscription', 'a date that does not parse', (s) => ({ ...s, next_at: 'soon' }), 'data.next_at must be a valid ISO 8601 date-time'],
  ['subscription', 'more cycles paid than the total', (s) => ({ ...s, billing_total: 1, billing_current: 5 }), 'data.billing_current is past billing_total'],
  ['subscription', 'more smart retries than a request may ask', (s) => ({ ...s, retries: { retry_on_decline: true, amount: 11 } }), 'data.retries.amount must be at most 10'],
  ['subscription', 'a vaulted token of no payment method', (s) => ({ ...s, payment_method: { type: 'CARD', vaulted_token: UNKNOWN } }), 'data.payment_method.vaulted_token names a payment_method'],
  ['recipient', 'a national entity the API has none of', (r) => ({ ...r, national_entity: 'ALIEN' }), "its answer's national_entity must be one of"],
  ['transfer', 'more reversed than the amount', (t) => ({ ...t, reversed_units: units(t, 'amount_units') + 1 }), 'data.reversed_units is more than the amount'],
  ['transfer', 'a REVERSED status with part of it reversed', (t) => ({ ...t, status: 'REVERSED' }), 'data.status is REVERSED exactly once'],
  ['transfer', 'a currency that is no money', (t) => ({ ...t, currency: 'XTS' }), 'data.currency must be an ISO 4217 currency code'],
  ['transfer', 'a recipient the snapshot does not hold', (t) => ({ ...t, recipient_id: UNKNOWN }), 'data.recipient_id names a recipient'],
  ['balance', 'a negative balance', (b) => ({ ...b, units: { BRL: -1 } }), 'data.units.BRL must be at least 0'],
  ['balance', 'a recipient the snapshot does not hold', (b) => ({ ...b, recipient_id: UNKNOWN }), 'data.recipient_id names a recipient'],
  ['banking_entity', 'a creation date that does not parse', (e) => ({ ...e, created_at: 'yesterday' }), 'data.created_at must be a valid ISO 8601 date-time'],
  ['banking_entity', 'a merchant_entity_id other than its unique key', (e) => ({ ...e, merchant_entity_id: 'another' }), 'data is kept under the unique key'],
  ['banking_onboarding', 'a status no onboarding takes', (o) => ({ ...o, status: 'MAYBE' }), 'data.status must be one of'],
  ['banking_onboarding', 'an entity the snapshot does not hold', (o) => ({ ...o, entity_id: 'ent_unknown' }), 'data.entity_id names a banking_entity'],
  ['banking_account', 'a balance finer than 0.0001', (a) => ({ ...a, balance: { available: 0.00001, current: 0, pending: 0 } }), 'data.balance.available must be a multiple of 0.0001'],
  ['banking_account', 'an onboarding the snapshot does not hold', (a) => ({ ...a, onboarding_id: 'onb_unknown' }), 'data.onboarding_id names a banking_onboarding'],
  ['webhook', 'a URL that is not http(s)', (w) => ({ ...w, url: 'file:///etc/passwd' }), 'data.url must be an http(s) URL'],
  ['webhook', 'a renewal of 0 days', (w) => ({ ...w, renewal_days: 0 }), 'data.renewal_days must be at least 1'],
  ['webhook_delivery', 'an eighth attempt', (d) => ({ ...d, attempts: Array.from({ length: 8 }, () => ({ at: '2026-01-01T00:00:00.000Z' })) }), 'data.attempts must have at most 7 item(s)'],
  ['webhook_delivery', 'a next attempt of a delivery that is over', (d) => ({ ...d, state: 'failed', next_attempt_at: '2026-01-01T00:00:00.000Z' }), 'data.next_attempt_at only a pending delivery'],
  ['event', 'a creation date that does not parse', (e) => ({ ...e, created_at: 'soon' }), 'data.created_at must be a valid ISO 8601 date-time'],
  ['idempotency', 'an answer of no HTTP status', (r) => ({ ...r, state: 'completed', response: { status: 42, body: {} } }), 'data.response.status must be at least 100'],
  ['idempotency', 'a completed request without its answer', (r) => ({ ...r, state: 'completed', response: null }), 'data.response a completed request keeps its answer'],
  ['fault_rule', "a latency past the contract's cap", (f) => ({ ...f, effect: { type: 'latency', ms: 10_000_000 } }), 'data.effect.ms must be at most'],
  ['fault_rule', 'a probability above 1', (f) => ({ ...f, probability: 5 }), 'data.probability must be at most 1'],
  ['webhook_chaos', 'a PRNG state past 32 bits', (c) => ({ ...c, rng_state: 2 ** 33 }), 'data.rng_state must be at most'],
];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe.each(storesUnderTest('snapshot-checks.test.ts'))('snapshot imports checked like API writes, on the $name store', (store) => {
  const sb = sandboxOn(store, { limits: { ...DEFAULT_LIMITS, chargesPerRun: CHARGES } });
  let world: Awaited<ReturnType<typeof buildEveryKind>>;
  beforeAll(async () => {
    world = await buildEveryKind(sb.url);
  }, SLOW_STEP_TIMEOUT_MS);

  const target = async () => clientsFor(sb.url, await newMerchant(sb.url));

  it('imports a snapshot holding every kind of record in the states the API leads it through, whole', async () => {
    const kinds = new Set(world.snapshot.records.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(Object.keys(STORED_RULES).sort());
    const copy = await target();
    expect(await copy.sandbox.importSnapshot({ body: world.snapshot })).toMatchObject({ status: 200, body: { imported: world.snapshot.records.length } });
    // The same records, but for the public handles the source still holds, which the copy keeps
    // without.
    const comparable = (r: SnapshotRecord) => ({
      ...r,
      unique_key: ['payment_link', 'payer_page', 'checkout_session'].includes(r.kind) ? null : r.unique_key,
    });
    expect((await exported(copy)).records.map(comparable)).toEqual(world.snapshot.records.map(comparable));
  });

  it.each(BROKEN)('refuses a %s record with %s, naming it and the field, and imports nothing', async (kind, _broken, change, field, pick) => {
    const copy = await target();
    const res = await copy.sandbox.importSnapshot({ body: tampered(world.snapshot, kind, change, pick) });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS' } });
    expect(res.body).toMatchObject({ messages: expect.arrayContaining([expect.stringMatching(new RegExp(`^records\\[\\d+\\] ${kind} "[^"]+": ${escaped(field)}`))]) });
    expect((await exported(copy)).records).toEqual([]);
  });

  it('refuses a record id or unique key twice in one snapshot', async () => {
    const link = world.snapshot.records.find((r) => r.kind === 'payment_link') as SnapshotRecord;
    const res = await (await target()).sandbox.importSnapshot({ body: { ...world.snapshot, records: [...world.snapshot.records, { ...link, id: `${link.id}-copy` }] } });
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PARAMETERS', messages: expect.arrayContaining([expect.stringMatching(/unique_key is also records\[\d+\]'s/)]) } });
  });

  it('names at most 20 problems and counts the rest, each message bounded', async () => {
    const customer = world.snapshot.records.find((r) => r.kind === 'customer') as SnapshotRecord;
    const broken = Array.from({ length: 30 }, (_, i) => {
      const id = crypto.randomUUID();
      return { ...customer, id: `${id}${'x'.repeat(200)}`, unique_key: `broken-${i}`, data: { ...customer.data, id, merchant_customer_id: `broken-${i}`, first_name: i } };
    });
    const res = await (await target()).sandbox.importSnapshot({ body: { ...world.snapshot, records: [...world.snapshot.records, ...broken] } });
    expect(res.status).toBe(400);
    const { messages } = res.body as { messages: string[] };
    expect(messages).toHaveLength(MAX_ERROR_MESSAGES + 1);
    expect(messages.at(-1)).toMatch(/^and \d+ more problem\(s\) not listed$/);
    for (const m of messages) expect(m.length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
  });

  it('charges a subscription that never moves forward (written past the checks) at most the bound per read, and answers', async () => {
    const { merchant, clients } = world;
    const record = (await exported(clients)).records.find((r) => r.kind === 'subscription') as SnapshotRecord;
    await sb.sandbox.store.withTransaction(merchant.id, (tx) => tx.put('subscription', record.id, { ...record.data, frequency: { type: 'DAY', value: 0 }, billing_total: null, next_at: '2000-01-01T00:00:00.000Z' }));
    const payments = async () => (await exported(clients)).records.filter((r) => r.kind === 'payment').length;
    const before = await payments();
    expect((await clients.subscriptions.get({ params: { id: record.id } })).status).toBe(200);
    expect((await payments()) - before).toBe(CHARGES);
    expect((await clients.subscriptions.get({ params: { id: record.id } })).status).toBe(200);
    expect((await payments()) - before).toBe(2 * CHARGES);
  });

  it('gives a public code to one merchant only when two imports of one snapshot run at once', async () => {
    const { clients, snapshot } = await buildEveryKind(sb.url);
    // The source lets its codes go, so both imports may take them.
    expect((await clients.sandbox.reset()).status).toBe(200);
    const targets = [await target(), await target()];
    const results = await Promise.all(targets.map((t) => t.sandbox.importSnapshot({ body: snapshot })));
    for (const r of results) expect(r.status).toBe(200);
    const copies = await Promise.all(targets.map(exported));
    const handles = snapshot.records.filter((r) => ['payment_link', 'payer_page', 'checkout_session'].includes(r.kind) && r.unique_key !== null);
    expect(handles.length).toBeGreaterThan(0);
    for (const handle of handles) {
      const holders = copies.filter((copy) => copy.records.some((r) => r.kind === handle.kind && r.unique_key === handle.unique_key));
      expect(holders, `${handle.kind} ${handle.unique_key}`).toHaveLength(1);
    }
  });

  /** The world with copies of one of its card payments (new ids), up to `n` records in all. */
  const grown = (n: number): Snapshot => {
    const payment = world.snapshot.records.find((r) => r.kind === 'payment' && r.data.checkout_session !== null) as SnapshotRecord;
    const copies = Array.from({ length: n - world.snapshot.records.length }, () => {
      const id = crypto.randomUUID();
      return { ...payment, id, data: { ...payment.data, id } };
    });
    return { ...world.snapshot, records: [...world.snapshot.records, ...copies] };
  };

  it('imports a large snapshot', async () => {
    // About as many records as a body within the JSON limits holds (200,000 brackets and commas).
    // How long it takes is the benchmarks' to judge; this prints it.
    const snapshot = grown(1_000);
    const started = performance.now();
    const res = await (await target()).sandbox.importSnapshot({ body: snapshot });
    expect(res).toMatchObject({ status: 200, body: { imported: 1_000 } });
    console.info(`import of ${snapshot.records.length} records (${store.name}): ${(performance.now() - started).toFixed(0)} ms`);
  });

  /**
   * The most records a snapshot holds, payments (the kind with the most rules) naming the world's
   * other records: the checks let other work in as they go. Counted, not timed: a callback that
   * asks for the event loop again each time it runs runs between the check's slices, so it ran
   * many times by the end. Unsliced, it would not have run at all. The checks read the snapshot
   * and no store, so this runs on the memory store only (it took 20 to 40 s a store in CI).
   */
  if (store === MEMORY)
    it('checks 20,000 records in slices that let other work run between them', async () => {
      const large = grown(20_000);
      let turns = 0;
      let checking = true;
      const other = () => {
        turns += 1;
        if (checking) setImmediate(other);
      };
      setImmediate(other);
      const started = performance.now();
      await checkSnapshotRecords(large, DEFAULT_LIMITS);
      checking = false;
      const ms = performance.now() - started;
      console.info(`checks (${store.name}): 20,000 records in ${ms.toFixed(0)} ms, other work ran ${turns} times meanwhile`);
      // A slice is 10 ms of checking, and 20,000 payments take far longer than ten of them.
      expect(turns).toBeGreaterThan(10);
    }, SLOW_STEP_TIMEOUT_MS);
});
