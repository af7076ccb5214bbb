import { describe, expectTypeOf, it } from 'vitest';
import type { Payment, RefundBody } from './payments/schemas.js';
import type { paymentsContract } from './payments/routes.js';
import type { Customer } from './customers/schemas.js';
import type { customersContract } from './customers/routes.js';
import type { Requests, SuccessBodies, SuccessBody, SuccessStatus } from './types.js';

// Checked by `tsc --noEmit` (the typecheck task); vitest runs the file so the assertions are also counted.
describe('exported request and response types', () => {
  it('infers the success status and body of a route', () => {
    expectTypeOf<SuccessStatus<typeof paymentsContract.refund>>().toEqualTypeOf<200>();
    expectTypeOf<SuccessStatus<typeof customersContract.create>>().toEqualTypeOf<201>();
    expectTypeOf<SuccessBody<typeof paymentsContract.refund>>().toEqualTypeOf<Payment>();
    expectTypeOf<SuccessBodies<typeof customersContract>['create']>().toEqualTypeOf<Customer>();
  });

  it('infers the request of a route', () => {
    expectTypeOf<Requests<typeof paymentsContract>['refund']['body']>().toEqualTypeOf<RefundBody>();
    expectTypeOf<Requests<typeof paymentsContract>['refund']['params']>().toEqualTypeOf<{ id: string; transaction_id: string }>();
  });
});
