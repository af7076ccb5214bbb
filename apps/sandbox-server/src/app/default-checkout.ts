import { nameBasedUuid } from '../runtime/ids.js';

/**
 * The checkout a session uses when it names none: upstream falls back to "the account's default
 * checkout" (Create Customer Session, `checkout_id`) and answers its id. The sandbox keeps no
 * checkouts, so the id is derived from the account: the same for every session of the account.
 */
export const defaultCheckoutId = (accountId: string): string => nameBasedUuid(`default-checkout:${accountId}`);
