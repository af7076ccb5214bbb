import { expireWaitingPayments } from '../../app/alternative-methods.js';
import type { RequestContext } from '../../app/context.js';
import type { Store } from '../../store/types.js';
import type { HttpDeps } from '../api/deps.js';
import { merchantRequestContext } from '../api/merchant-context.js';
import { isStorableText } from '../api/request-text.js';

/**
 * The merchant behind a page the payer opens without API keys (hosted checkout, payer page,
 * enrollment page), found from the handles in its address, as a use-case context with payments
 * waiting past their time expired first (the payer acts now, on the merchant's clock). Undefined
 * when a handle holds text no store can keep (PostgreSQL would refuse the lookup, and no handle
 * holds such text) or names no merchant.
 */
export async function pageContext(deps: HttpDeps, handles: readonly string[], merchantOf: (store: Store) => Promise<string | undefined>): Promise<RequestContext | undefined> {
  if (!handles.every(isStorableText)) return undefined;
  const merchantId = await merchantOf(deps.store);
  const merchant = merchantId === undefined ? undefined : await deps.store.getMerchant(merchantId);
  if (!merchant) return undefined;
  const ctx = merchantRequestContext(deps, merchant);
  await expireWaitingPayments(ctx);
  return ctx;
}
