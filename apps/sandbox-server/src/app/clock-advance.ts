import type { SandboxClock } from '@switchyard/contract';
import { dueOf } from '../domain/due-work.js';
import { DomainError } from '../domain/errors.js';
import { yieldToEventLoop } from '../runtime/yield.js';
import { KeyedMutex } from '../runtime/mutex.js';
import type { RecordKind } from '../store/types.js';
import { expireOnboardings } from './banking.js';
import { expireWaitingPayments } from './alternative-methods.js';
import { existingMerchant, nowOf, type RequestContext } from './context.js';
import { purgeExpired } from './retention.js';
import { clockView } from './sandbox.js';
import { billEverythingDue } from './subscriptions.js';

/**
 * The most sandbox time one step of an advance covers past the earliest due work. Retention runs
 * at the end of every step, so however far the clock goes a merchant holds at most this plus the
 * 30 days of retention of events and finished deliveries.
 */
const ADVANCE_STEP_MS = 30 * 86400_000;

/** Kinds of records the clock acts on in a step (the `clock` lane of `dueOf`). */
const CLOCK_KINDS: RecordKind[] = ['subscription', 'banking_onboarding', 'payment', 'webhook_delivery'];

/**
 * Sends a merchant's due webhook deliveries. One run serves a whole advance: a receiver that gave
 * no answer in it is sent nothing more (the webhook dispatcher makes runs; sandbox.ts wires it).
 */
export type DeliveryRun = (merchantId: string) => Promise<void>;

/**
 * How long one POST of an advance's deliveries (its wait for a place included) may take before the
 * advance stops waiting for its deliveries: a receiver that answers at once is seen in the log when
 * the advance answers; one that hangs never holds the advance (or its merchant's next one) longer.
 */
export const ADVANCE_DELIVERY_PATIENCE_MS = 1_000;

/**
 * Moves merchants' clocks forward (`POST /sandbox/clock/advance`). The clock moves in steps, and at
 * each step everything that fell due runs in bounded batches, each its own transaction, with the
 * event loop free between them: other tenants (and this one) are served throughout, and however
 * far the clock goes no batch is bigger than a few hundred records. Each step is whole when the
 * clock shows it, so an advance stopped by a shutdown leaves the clock where its work stands.
 */
export class ClockAdvancer {
  /** One advance per merchant at a time (on this process), so two advances add up. */
  private readonly advancing = new KeyedMutex();

  constructor(
    /** A new delivery run, which stops between batches once `signal` aborts. */
    private readonly startDeliveries: (signal: AbortSignal) => DeliveryRun,
    private readonly shutdown: AbortSignal,
  ) {}

  advance(ctx: RequestContext, seconds: number): Promise<SandboxClock> {
    return this.advancing.run(ctx.merchant.id, () => this.run(ctx, seconds));
  }

  private async run(ctx: RequestContext, seconds: number): Promise<SandboxClock> {
    let merchant = await existingMerchant(ctx.store.getMerchant(ctx.merchant.id));
    const target = merchant.clock_offset_seconds + seconds;
    const deliveries = this.startDeliveries(this.shutdown);
    // The advance sends the deliveries its steps queue itself; a kick would race ahead of the steps.
    const base: RequestContext = { ...ctx, deliveriesQueued: undefined };
    do {
      this.stopIfShuttingDown({ ...base, merchant });
      const stop = await this.nextStop({ ...base, merchant }, target);
      merchant = await existingMerchant(ctx.store.updateMerchant(merchant.id, (m) => ({ ...m, clock_offset_seconds: Math.max(m.clock_offset_seconds, stop) })));
      await this.runDue({ ...base, merchant }, deliveries);
    } while (merchant.clock_offset_seconds < target);
    return clockView({ ...ctx, merchant });
  }

  /** The offset of the next step: a step past the earliest due work (or past now when nothing is due), never past the target. */
  private async nextStop(ctx: RequestContext, target: number): Promise<number> {
    const targetMs = ctx.clock.at(target).getTime();
    const earliest = await ctx.store.withTransaction(ctx.merchant.id, async (tx) => {
      let at = Number.POSITIVE_INFINITY;
      for (const kind of CLOCK_KINDS) {
        const [first] = await tx.listDue(kind, 'clock', targetMs, 1);
        const due = first === undefined ? null : dueOf(kind, first);
        if (due) at = Math.min(at, due.at);
      }
      return at;
    });
    if (earliest === Number.POSITIVE_INFINITY) return target;
    const stopMs = Math.max(earliest, nowOf(ctx).getTime()) + ADVANCE_STEP_MS;
    const stop = Math.ceil((stopMs - ctx.clock.nowMs()) / 1000);
    return Math.min(target, Math.max(stop, ctx.merchant.clock_offset_seconds + 1));
  }

  /** Everything due at the merchant's time: billing, onboarding and payment expiry, webhook deliveries, retention; in batches. */
  private async runDue(ctx: RequestContext, deliveries: DeliveryRun): Promise<void> {
    await billEverythingDue(ctx, () => this.stopIfShuttingDown(ctx));
    await expireOnboardings(ctx);
    await expireWaitingPayments(ctx);
    await deliveries(ctx.merchant.id);
    await purgeExpired(ctx.store, ctx.merchant.id, nowOf(ctx).getTime());
    await yieldToEventLoop();
  }

  /** Between batches: a shutdown ends the advance where it stands, every batch before it whole. */
  private stopIfShuttingDown(ctx: RequestContext): void {
    if (!this.shutdown.aborted) return;
    const { now, offset_seconds } = clockView(ctx);
    throw new DomainError('INTERNAL_ERROR', [
      `the sandbox is shutting down: the clock advance stopped at ${now} (offset_seconds ${offset_seconds}), with everything due until then done; advance again once it is back`,
    ]);
  }
}
