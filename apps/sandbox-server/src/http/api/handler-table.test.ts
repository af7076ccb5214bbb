import { describe, expect, it } from 'vitest';
import { listRoutes } from '@switchyard/contract';
import { handlers } from './handler-table.js';
import type { Handlers } from './handler-types.js';
import { API_ROUTERS } from './route-dispatch.js';

describe('the handler table', () => {
  it('has one entry per route of the contract, keyed as its routers are', () => {
    const routes = Object.entries(API_ROUTERS).flatMap(([domain, router]) => listRoutes(router).map((r) => `${domain}.${r.key}`));
    const entries = Object.entries(handlers).flatMap(([domain, table]) => Object.keys(table).map((key) => `${domain}.${key}`));
    expect(entries.sort()).toEqual(routes.sort());
  });

  // What the guide promises (docs/architecture.md, "How to add an endpoint"): a route without its
  // handler is a compile error, not a failure at start.
  it('does not compile without the entry of a route', () => {
    const { get: _get, ...customersWithoutGet } = handlers.customers;
    // @ts-expect-error customers.get is missing
    const incomplete: Handlers = { ...handlers, customers: customersWithoutGet };
    expect(Object.keys(incomplete.customers)).not.toContain('get');
  });
});
