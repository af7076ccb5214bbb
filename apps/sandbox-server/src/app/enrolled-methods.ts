import type { TestOutcome } from '../domain/cards.js';
import { chargeOutcome, requirePayable } from '../domain/enrollment.js';
import type { PaymentMethodState } from '../domain/payment-method-state.js';
import type { Tx } from '../store/types.js';

/** The ENROLLED method a vaulted token names, for a payment, a subscription or scripted outcomes. */
export async function loadEnrolledMethod(tx: Tx, vaultedToken: string): Promise<PaymentMethodState> {
  return requirePayable(await tx.getByUniqueKey<PaymentMethodState>('payment_method', vaultedToken), vaultedToken);
}

/** Charges an enrolled method: picks the outcome, and saves the method when that consumed a scripted one. */
export async function outcomeOfCharge(tx: Tx, vaultedToken: string, description: string): Promise<{ outcome: TestOutcome; method: PaymentMethodState }> {
  const method = await loadEnrolledMethod(tx, vaultedToken);
  const charged = chargeOutcome(method, description);
  // Unchanged, it is not written again: a clock advance charges it thousands of times.
  if (charged.method !== method) await tx.put('payment_method', charged.method.id, charged.method, vaultedToken);
  return charged;
}
