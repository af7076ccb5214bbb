import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { PaymentLinkState } from '../domain/payment-links.js';
import type { PaymentState } from '../domain/payment-state.js';
import { BaseClock } from '../runtime/clock.js';
import { IdFactory } from '../runtime/ids.js';
import { PostgresStore } from '../store/postgres.js';
import type { Tx } from '../store/types.js';
import { freshSchema, testDatabaseUrl } from '../test-support/database.js';
import { createPaymentLink } from './checkout.js';
import type { RequestContext } from './context.js';
import { answerCheckoutChallenge, callbackWith, payCheckout, paymentBody, wentThrough, type Checkout, type CheckoutPayment } from './hosted-checkout.js';

const ACCOUNT = '4a3e8f1c-6b2d-4e7a-9c15-8d0f2b6a7e31';
const SESSION = '0b6a2c1e-4f3d-4a5b-9c8d-7e6f5a4b3c2d';
const checkout: Checkout = {
  target: { kind: 'link', code: 'abc123def456' },
  link: { id: 'l1', code: 'abc123def456', one_time_use: false },
  account_id: ACCOUNT,
  country: 'AR',
  description: 'Order 7',
  merchant_order_id: 'order-7',
  amount: { currency: 'ARS', value: 10.5 },
  methods: ['CARD', 'PIX'],
  callback_url: 'https://shop.example/back?x=1',
  capture: false,
  vault_on_success: true,
  customer_payer: null,
  state: { payable: true },
};
const card = { number: '4111111111111111', expiration_month: 11, expiration_year: 2030, security_code: '123' };
const paid: CheckoutPayment = { payment_id: 'p1', status: 'SUCCEEDED', sub_status: 'APPROVED', merchant_order_id: 'order-7', redirect_url: null, awaiting_challenge: false };

describe('the payment a hosted checkout asks for', () => {
  it("is the API's create-payment request: a link's by redirect, with its capture and vault_on_success", () => {
    expect(paymentBody(checkout, { type: 'CARD', card })).toMatchObject({
      account_id: ACCOUNT,
      merchant_order_id: 'order-7',
      description: 'Order 7',
      workflow: 'REDIRECT',
      callback_url: 'https://shop.example/back?x=1',
      payment_method: { type: 'CARD', vault_on_success: true, detail: { card: { capture: false, card_data: card } } },
    });
  });

  it("keeps the link's payer as the link stored it, which a payment's schema would refuse (a 2-letter first name)", () => {
    const payer = { first_name: 'Al', gender: 'X' };
    expect(paymentBody({ ...checkout, customer_payer: payer }, { type: 'CARD', card }).customer_payer).toEqual(payer);
  });

  it("goes with a session's id, and refuses what the contract refuses", () => {
    const session: Checkout = { ...checkout, target: { kind: 'session', id: SESSION }, callback_url: '' };
    const body = paymentBody(session, { type: 'CARD', card });
    expect(body).toMatchObject({ checkout: { session: SESSION }, workflow: 'CHECKOUT' });
    expect(body.callback_url).toBeUndefined();
    expect(() => paymentBody(checkout, { type: 'CARD', card: { ...card, security_code: '12345' } })).toThrow(/security_code/);
  });
});

describe('the way back to the merchant', () => {
  it('adds the payment identifiers to callback_url, keeping its own query', () => {
    const url = new URL(callbackWith(checkout.callback_url, checkout.target, paid) ?? '');
    expect(Object.fromEntries(url.searchParams)).toEqual({ x: '1', payment_id: 'p1', status: 'SUCCEEDED', sub_status: 'APPROVED', merchant_order_id: 'order-7', payment_link_code: 'abc123def456' });
    expect(new URL(callbackWith('http://shop.example/', { kind: 'session', id: SESSION }, paid) ?? '').searchParams.get('checkout_session')).toBe(SESSION);
  });

  it('is no redirect to an address that is not http(s)', () => {
    expect(['', 'www.example.com', 'javascript:alert(1)', 'https://'].map((u) => callbackWith(u, checkout.target, paid))).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('is taken at once only by a payment that went through', () => {
    expect([wentThrough(paid), wentThrough({ ...paid, status: 'PENDING' }), wentThrough({ ...paid, status: 'DECLINED' }), wentThrough({ ...paid, status: 'PENDING', awaiting_challenge: true })]).toEqual([true, true, false, false]);
  });
});

const databaseUrl = testDatabaseUrl('app/hosted-checkout.test.ts');

/**
 * On PostgreSQL each record a transaction reads is held until it ends. A change to a payment holds
 * the payment and then its link (`followLinkPayment`); a new payment on the link holds the link and
 * must not then read the link's last payment, or the two would wait on each other until PostgreSQL
 * ended one of them as a deadlock (and the store ran it again). Here the buyer's transaction holds
 * the link and waits, through promises, until the challenge answer holds the payment and goes for
 * the link: no transaction may have to run twice.
 */
describe.skipIf(!databaseUrl)('a one-time link on PostgreSQL', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('takes a new payment attempt and a change to its last payment side by side without a deadlock', async () => {
    const { schema, drop } = await freshSchema(databaseUrl as string);
    cleanups.push(drop);
    const store = await PostgresStore.connect({ connectionString: databaseUrl as string, schema, poolSize: 4 });
    cleanups.push(() => store.close());
    const merchant = { id: 'm-lock', name: 'm', public_api_key: 'pk_lock', secret_key_digest: 'd', account_ids: [ACCOUNT], fingerprint_key: 'k', clock_offset_seconds: 0, created_at: '2026-01-01T00:00:00.000Z' };
    await store.putMerchantIfAbsent(merchant);
    const ctx: RequestContext = { merchant, store, clock: new BaseClock(undefined), ids: new IdFactory(undefined).forNewMerchants(), baseUrl: 'http://sandbox.test' };
    const link = await createPaymentLink(ctx, { ...fixtures.createPaymentLink(), account_id: ACCOUNT, availability: undefined, one_time_use: true });
    const target = { kind: 'link', code: link.code } as const;
    const challenged = await payCheckout(ctx, target, randomUUID(), { type: 'CARD', card: { ...card, number: '4916994064252017' } });
    expect(challenged.awaiting_challenge).toBe(true);

    let linkHeld = () => {};
    let paymentHeld = () => {};
    const buyerHoldsLink = new Promise<void>((resolve) => (linkHeld = resolve));
    const answerHoldsPayment = new Promise<void>((resolve) => (paymentHeld = resolve));
    let reruns = 0;
    const gated = (tx: Tx, holds: Set<string>): Tx => ({
      ...tx,
      get: async <T>(kind: Parameters<Tx['get']>[0], id: string) => {
        if (kind === 'payment' && id === challenged.payment_id) await buyerHoldsLink;
        const found = await tx.get<T>(kind, id);
        holds.add(kind);
        return found;
      },
      getByUniqueKey: async <T>(kind: Parameters<Tx['get']>[0], key: string) => {
        // The answer, holding the payment, asks for the link the buyer holds.
        if (kind === 'payment_link' && holds.has('payment')) paymentHeld();
        const found = await tx.getByUniqueKey<T>(kind, key);
        if (kind === 'payment_link' && !holds.has('payment')) {
          linkHeld();
          await answerHoldsPayment;
        }
        holds.add(kind);
        return found;
      },
    });
    // The store as the app sees it, each transaction gated as above and counted: PostgreSQL ends a
    // deadlocked one, and the store runs it again from the start.
    const ofStore = store.withTransaction.bind(store);
    const watched = {
      ...ctx,
      store: Object.assign(Object.create(store) as PostgresStore, {
        withTransaction: <T>(merchantId: string, fn: (tx: Tx) => Promise<T>) => {
          let runs = 0;
          return ofStore(merchantId, (tx) => {
            runs += 1;
            if (runs > 1) reruns += 1;
            return fn(gated(tx, new Set()));
          });
        },
      }),
    };

    const [buyer, answer] = await Promise.allSettled([
      payCheckout(watched, target, randomUUID(), { type: 'CARD', card }),
      answerCheckoutChallenge(watched, challenged.payment_id, '1111'),
    ]);
    expect(reruns).toBe(0);
    // The buyer's page was read before the challenge failed: the link was then busy with it.
    expect(buyer).toMatchObject({ status: 'rejected', reason: { code: 'INVALID_STATE', messages: [expect.stringContaining('in progress')] } });
    expect(answer).toMatchObject({ status: 'fulfilled', value: { status: 'DECLINED' } });
    const stored = await store.withTransaction(merchant.id, (tx) => tx.getByUniqueKey<PaymentLinkState>('payment_link', link.code));
    expect(stored).toMatchObject({ status: 'CREATED', payments_number: 1, last_payment_status: { status: 'DECLINED' } });
    const payment = await store.withTransaction(merchant.id, (tx) => tx.get<PaymentState>('payment', challenged.payment_id));
    expect(payment?.payment_link).toEqual({ id: link.id, code: link.code, one_time_use: true });
  });
});
