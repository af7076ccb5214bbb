import type { CreateCustomerBody, CreateCustomerSessionBody, Customer, CustomerSession } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { presentCustomer, type StoredCustomer } from '../domain/customer-view.js';
import { event } from '../domain/events.js';
import { UniqueViolation, type Tx } from '../store/types.js';
import { isoNow, nowOf, recordEvents, requireAccount, type RequestContext } from './context.js';
import { defaultCheckoutId } from './default-checkout.js';

/** How long an enrollment session stays usable. */
const CUSTOMER_SESSION_TTL_MS = 60 * 60 * 1000;

const nullable = <T>(value: T | undefined): T | null => value ?? null;

export async function createCustomer(ctx: RequestContext, body: CreateCustomerBody): Promise<Customer> {
  const now = isoNow(ctx);
  const customer: StoredCustomer = {
    id: ctx.ids.uuid(),
    merchant_customer_id: body.merchant_customer_id,
    merchant_customer_created_at: nullable(body.merchant_customer_created_at),
    first_name: nullable(body.first_name),
    last_name: nullable(body.last_name),
    gender: nullable(body.gender),
    date_of_birth: nullable(body.date_of_birth),
    email: nullable(body.email),
    nationality: nullable(body.nationality),
    country: nullable(body.country),
    document: nullable(body.document),
    phone: nullable(body.phone),
    billing_address: nullable(body.billing_address),
    shipping_address: nullable(body.shipping_address),
    metadata: nullable(body.metadata),
    created_at: now,
    updated_at: now,
  };
  try {
    await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
      await tx.create('customer', customer.id, customer, body.merchant_customer_id);
      await recordEvents(ctx, tx, [event('customer.created', 'customer', customer.id, null, { customer_id: customer.id })]);
    });
  } catch (error) {
    if (error instanceof UniqueViolation) {
      throw new DomainError('CUSTOMER_ID_DUPLICATED', [`a customer with merchant_customer_id ${body.merchant_customer_id} already exists`]);
    }
    throw error;
  }
  return presentCustomer(customer);
}

/** The merchant's customer (a store is one merchant's), or CUSTOMER_NOT_FOUND. */
export async function requireCustomer(tx: Tx, customerId: string): Promise<StoredCustomer> {
  const customer = await tx.get<StoredCustomer>('customer', customerId);
  if (!customer) throw new DomainError('CUSTOMER_NOT_FOUND', [`customer ${customerId} not found`]);
  return customer;
}

export async function getCustomer(ctx: RequestContext, customerId: string): Promise<Customer> {
  return presentCustomer(await ctx.store.withTransaction(ctx.merchant.id, (tx) => requireCustomer(tx, customerId)));
}

export async function createCustomerSession(ctx: RequestContext, body: CreateCustomerSessionBody): Promise<CustomerSession> {
  requireAccount(ctx, body.account_id);
  const now = nowOf(ctx);
  return ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
    await requireCustomer(tx, body.customer_id);
    const session: CustomerSession = {
      customer_session: ctx.ids.uuid(),
      customer_id: body.customer_id,
      account_id: body.account_id,
      country: body.country,
      callback_url: body.callback_url ?? '',
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + CUSTOMER_SESSION_TTL_MS).toISOString(),
      checkout_id: body.checkout_id ?? defaultCheckoutId(body.account_id),
    };
    await tx.put('customer_session', session.customer_session, session);
    await recordEvents(ctx, tx, [event('customer_session.created', 'customer_session', session.customer_session, body.account_id, { customer_id: body.customer_id })]);
    return session;
  });
}
