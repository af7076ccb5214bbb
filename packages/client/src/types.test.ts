import { describe, expectTypeOf, it } from 'vitest';
import type { Customer, Payment, RetrievedPayment } from '@switchyard/contract';
import { createClient } from './index.js';
import { createPaymentsClient } from './domains/payments.js';

// Compile-time checks (run by `tsc --noEmit`); vitest counts them too.
describe('client types', () => {
  const client = createClient({ publicApiKey: 'pk', privateSecretKey: 'sk' });

  it('resolves the success body in the default style', () => {
    expectTypeOf(client.customers.create).returns.resolves.toEqualTypeOf<Customer>();
    expectTypeOf(client.payments.refund).returns.resolves.toEqualTypeOf<Payment>();
  });

  it('needs no idempotency header and takes per-call options', () => {
    type RefundArgs = Parameters<typeof client.payments.refund>[0];
    expectTypeOf<RefundArgs>().toHaveProperty('idempotencyKey');
    expectTypeOf<RefundArgs>().toHaveProperty('maxRetries');
    expectTypeOf<{ params: { id: string; transaction_id: string }; body: { merchant_reference: string } }>().toMatchTypeOf<RefundArgs>();
  });

  it('exposes the raw union', () => {
    type Raw = Awaited<ReturnType<typeof client.payments.raw.refund>>;
    expectTypeOf<Extract<Raw, { status: 200 }>['body']>().toEqualTypeOf<Payment>();
  });

  it('builds one domain alone', () => {
    const payments = createPaymentsClient({ publicApiKey: 'pk', privateSecretKey: 'sk' });
    expectTypeOf(payments.get).returns.resolves.toEqualTypeOf<RetrievedPayment>();
  });
});
