import type { Store } from './types.js';

/**
 * The same store, with its transactions run through `withTransaction`: how a caller observes or
 * interrupts the transactions of code it hands the store to. Every other method is the store's own.
 */
export function withTransactions(store: Store, withTransaction: Store['withTransaction']): Store {
  return new Proxy(store, {
    get: (target, prop) => {
      if (prop === 'withTransaction') return withTransaction;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
