import type { Logger } from 'pino';
import { WEBHOOK_SIGNATURE_HEADER } from '@switchyard/contract';
import { attemptChaos, failedByChaos, releaseHeld, timedOutByChaos } from '../domain/webhook-chaos.js';
import { afterAttempt, claimedUntil, isDue, isInFlight, nextAttempt, skipUnanswered, type DeliveryAttempt, type DeliveryState } from '../domain/webhook-delivery.js';
import type { WebhookState } from '../domain/webhook-routing.js';
import type { BaseClock } from '../runtime/clock.js';
import { yieldToEventLoop } from '../runtime/yield.js';
import type { Store, Tx } from '../store/types.js';
import { Deadline } from './deadline.js';
import { DestinationGuard, DestinationRefused } from './destinations.js';
import { postOnce } from './post.js';
import { FairSlots } from './fair-slots.js';
import { sign } from './signer.js';

export interface DispatcherOptions {
  /** Time-out of one POST to a receiver. */
  timeoutMs: number;
  /** Multiplies the retry delays (1 = upstream's schedule; 0.001 turns 5 minutes into 300 ms). */
  timeScale: number;
  /** How often pending deliveries are swept for retries that fell due in real time. */
  sweepMs: number;
  /** POSTs in flight at once over every merchant (default `MAX_CONCURRENT_POSTS`). */
  maxPosts?: number;
  /** POSTs in flight at once for one merchant (default `MAX_POSTS_PER_MERCHANT`). */
  maxPostsPerMerchant?: number;
  /** Where POSTs may go (default: anywhere but the sandbox itself, which is unknown then). */
  destinations?: DestinationGuard;
}

const USER_AGENT = 'Switchyard-Sandbox-Webhooks/0.1';
/** Deliveries claimed per transaction. */
const DISPATCH_BATCH = 50;
/** POSTs in flight at once, over every merchant: a burst of due deliveries never floods receivers or sockets. */
export const MAX_CONCURRENT_POSTS = 32;
/**
 * POSTs in flight at once for one merchant, well under the total: a merchant whose receivers never
 * answer holds at most these places, so another merchant's due delivery finds one free at once.
 */
export const MAX_POSTS_PER_MERCHANT = 4;
/** How long after a kick a run that found nothing due still sweeps the merchant every time: the queuing transaction may commit after the run looked. */
const KICK_WATCH_MS = 5_000;

/**
 * One dispatch run (a sweep, or the deliveries of one clock advance). It remembers the receivers
 * that gave no answer (connection refused, time-out): the run sends them nothing more and records
 * their later due attempts as not sent (`skipUnanswered`). It stops between batches once `signal` aborts.
 * With `patienceMs`, `outwaited` settles as soon as one of its POSTs (its wait for a place
 * included) has lasted that long: what lets a clock advance stop waiting for a slow receiver.
 */
export class DispatchRun {
  readonly unanswered = new Map<string, string>();
  readonly outwaited: Promise<void>;
  private giveUp: () => void = () => {};

  constructor(
    readonly signal?: AbortSignal,
    readonly patienceMs?: number,
  ) {
    this.outwaited = new Promise((resolve) => (this.giveUp = resolve));
  }

  /** Starts the patience of one POST; the returned function ends it when the POST does. */
  watch(): () => void {
    if (this.patienceMs === undefined) return () => {};
    const timer = setTimeout(this.giveUp, this.patienceMs);
    return () => clearTimeout(timer);
  }
}

interface Claimed {
  delivery: DeliveryState;
  webhook: WebhookState | undefined;
}

interface Outcome {
  id: string;
  attempt: DeliveryAttempt;
  /** False when the webhook is gone: nothing is left to retry. */
  retriable: boolean;
  /** Why the receiver gave no answer, when it did not. */
  unanswered: string | null;
}

/**
 * Sends what the outbox holds. Runs outside the requests that queued the deliveries, so a slow
 * or failing receiver never delays or fails them. Each attempt is claimed in a transaction first,
 * so one delivery is never sent twice at once. Work is found through the due index, in batches,
 * one run per merchant at a time; a kick during a run asks for one more run, never a queue of them.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  /** Merchants with pending deliveries, and the real time their next sweep is worth doing. */
  private readonly watched = new Map<string, number>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly rerun = new Set<string>();
  /** When each merchant was last kicked (real time), while that may be for a transaction still open. */
  private readonly kicked = new Map<string, number>();
  /** Places for POSTs in flight, shared fairly between merchants (`FairSlots`). */
  readonly posts: FairSlots;
  readonly destinations: DestinationGuard;
  private stopped = false;
  /**
   * Aborted for good when the dispatcher stops: the POSTs of its runs in flight end at once, and
   * those still waiting for a turn are never sent (a hanging receiver never holds a shutdown).
   */
  private readonly stopping = new AbortController();

  constructor(
    private readonly store: Store,
    private readonly clock: BaseClock,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions,
  ) {
    this.posts = new FairSlots(options.maxPosts ?? MAX_CONCURRENT_POSTS, options.maxPostsPerMerchant ?? MAX_POSTS_PER_MERCHANT);
    this.destinations = options.destinations ?? new DestinationGuard({ kind: 'any' }, () => undefined);
  }

  start(): void {
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const [merchantId, wakeAt] of this.watched) if (wakeAt <= now && !this.running.has(merchantId)) void this.kickNow(merchantId);
    }, this.options.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }

  /**
   * Something was queued for the merchant: send it soon. The kick comes from inside the queuing
   * transaction, which may not have committed when the run looks (a busy database): until
   * `KICK_WATCH_MS` after the kick, a run that finds nothing due has the merchant swept every
   * time, so a sweep sends the delivery once its transaction commits.
   */
  kick(merchantId: string): void {
    this.kicked.set(merchantId, Date.now());
    setTimeout(() => void this.kickNow(merchantId), 5).unref();
  }

  private kickNow(merchantId: string): Promise<void> {
    if (this.running.has(merchantId)) {
      this.rerun.add(merchantId);
      return Promise.resolve();
    }
    return this.runDue(merchantId).catch((err: unknown) => this.logger.error({ err, merchantId }, 'webhook dispatch failed'));
  }

  /** Sends every delivery of the merchant that is due on its clock, after the run in progress for it, if any. */
  runDue(merchantId: string, run = new DispatchRun()): Promise<void> {
    const previous = this.running.get(merchantId) ?? Promise.resolve();
    const current = previous.then(() => this.sendDue(merchantId, run));
    const settled: Promise<void> = current.then(
      () => this.finished(merchantId, settled),
      () => this.finished(merchantId, settled),
    );
    this.running.set(merchantId, settled);
    return current;
  }

  /**
   * `runDue`, waited for only until one of its POSTs (or the run before it) outlasts the run's patience: then the caller
   * goes on and the run goes on without it, its attempts recorded as they end (and a failure
   * logged, as nobody waits for it any more).
   */
  async runDueWhilePrompt(merchantId: string, run: DispatchRun): Promise<void> {
    let waiting = true;
    // A run already going for the merchant (a sweep, a kick) goes first, and its POSTs may hang:
    // waiting for it counts against the patience like a POST of this run.
    this.running.get(merchantId)?.finally(run.watch());
    const sending = this.runDue(merchantId, run);
    sending.catch((err: unknown) => {
      if (!waiting) this.logger.error({ err, merchantId }, 'webhook dispatch failed');
    });
    try {
      await Promise.race([sending, run.outwaited]);
    } finally {
      waiting = false;
    }
  }

  private finished(merchantId: string, run: Promise<void>): void {
    if (this.running.get(merchantId) !== run) return;
    this.running.delete(merchantId);
    if (this.rerun.delete(merchantId)) void this.kickNow(merchantId);
  }

  private async nowOf(merchantId: string): Promise<number | undefined> {
    const merchant = await this.store.getMerchant(merchantId);
    return merchant ? this.clock.at(merchant.clock_offset_seconds).getTime() : undefined;
  }

  private async sendDue(merchantId: string, run: DispatchRun): Promise<void> {
    for (;;) {
      if (this.stopped || run.signal?.aborted) return;
      const nowMs = await this.nowOf(merchantId);
      if (nowMs === undefined) return;
      const { claimed, skipped } = await this.claimDue(merchantId, nowMs, run);
      if (claimed.length === 0 && skipped === 0) return this.watchUntilDue(merchantId, nowMs);
      const outcomes = await Promise.all(claimed.map((c) => this.send(merchantId, c, run, this.stopping.signal)));
      // Deliveries a recorded attempt releases (webhook chaos `reorder`) are due now: the next batch sends them.
      await this.record(merchantId, outcomes, nowMs);
      await yieldToEventLoop();
    }
  }

  /**
   * Claims a batch of due deliveries: no more than the merchant may have in flight, so a claim
   * never lapses while its delivery waits for a place behind the merchant's own. Those whose
   * receiver already gave this run no answer are not claimed: their attempts due by now are
   * recorded as not sent, in the same transaction.
   */
  private claimDue(merchantId: string, nowMs: number, run: DispatchRun): Promise<{ claimed: Claimed[]; skipped: number }> {
    return this.store.withTransaction(merchantId, async (tx) => {
      const claimed: Claimed[] = [];
      const webhooks = new Map<string, Promise<WebhookState | undefined>>();
      let skipped = 0;
      for (const d of await tx.listDue<DeliveryState>('webhook_delivery', 'clock', nowMs, DISPATCH_BATCH)) {
        if (isInFlight(d, Date.now())) continue;
        if (claimed.length >= (this.options.maxPostsPerMerchant ?? MAX_POSTS_PER_MERCHANT)) break;
        const reason = run.unanswered.get(d.url);
        if (reason !== undefined) {
          await tx.put('webhook_delivery', d.id, skipUnanswered(d, nowMs, reason, this.options.timeScale));
          skipped += 1;
          continue;
        }
        if (!webhooks.has(d.webhook_id)) webhooks.set(d.webhook_id, tx.get<WebhookState>('webhook', d.webhook_id));
        claimed.push(await this.claim(tx, d, await webhooks.get(d.webhook_id)));
      }
      return { claimed, skipped };
    });
  }

  private async claim(tx: Tx, d: DeliveryState, webhook: WebhookState | undefined): Promise<Claimed> {
    const delivery = claimedUntil(d, Date.now() + this.options.timeoutMs + 1000);
    await tx.put('webhook_delivery', d.id, delivery);
    return { delivery, webhook };
  }

  /**
   * Records the attempts; a receiver that gave no answer also gets the rest of its schedule due by
   * now skipped. An attempt never sent (the dispatcher stopped first) records nothing: its claim
   * expires and the delivery stays due for whichever sandbox runs next on the store. A delivery's
   * first attempt releases the deliveries a webhook chaos `reorder` held for it, in the same
   * transaction: they are due from that attempt's time. Returns the recorded deliveries and how
   * many were released.
   */
  private async record(merchantId: string, outcomes: (Outcome | undefined)[], nowMs: number): Promise<{ recorded: DeliveryState[]; released: number }> {
    return this.store.withTransaction(merchantId, async (tx) => {
      const recorded: DeliveryState[] = [];
      let released = 0;
      for (const o of outcomes) {
        if (!o) continue;
        const current = await tx.get<DeliveryState>('webhook_delivery', o.id);
        if (!current) continue;
        let next = afterAttempt(current, o.attempt, this.options.timeScale, o.retriable);
        if (o.unanswered !== null) next = skipUnanswered(next, nowMs, o.unanswered, this.options.timeScale);
        if (next.releases?.length) {
          for (const id of next.releases) {
            const held = await tx.get<DeliveryState>('webhook_delivery', id);
            if (!held) continue;
            const release = releaseHeld(held, next.id, o.attempt.at);
            if (release === held) continue;
            await tx.put('webhook_delivery', id, release);
            released += 1;
          }
          next = { ...next, releases: [] };
        }
        await tx.put('webhook_delivery', next.id, next);
        recorded.push(next);
      }
      return { recorded, released };
    });
  }

  /**
   * Keeps sweeping the merchant only while something is pending, and not before its next attempt
   * falls due. Within `KICK_WATCH_MS` of a kick, though, every sweep looks, whatever else is
   * pending: the kicked deliveries may sit in a transaction that had not committed when the run
   * looked, and waiting for a retry due minutes later would hold them back that long.
   */
  private async watchUntilDue(merchantId: string, nowMs: number): Promise<void> {
    const kickedAt = this.kicked.get(merchantId);
    if (kickedAt !== undefined && Date.now() - kickedAt < KICK_WATCH_MS) {
      this.watched.set(merchantId, Date.now() + this.options.sweepMs);
      return;
    }
    this.kicked.delete(merchantId);
    const [next] = await this.store.withTransaction(merchantId, (tx) => tx.listDue<DeliveryState>('webhook_delivery', 'clock', Number.MAX_SAFE_INTEGER, 1));
    if (!next?.next_attempt_at) {
      this.watched.delete(merchantId);
      return;
    }
    this.watched.set(merchantId, Date.now() + Math.max(this.options.sweepMs, Date.parse(next.next_attempt_at) - nowMs));
  }

  /**
   * One POST, signed over the exact bytes, unless `stopping` aborted before its turn came
   * (undefined). A scheduled attempt is recorded at the sandbox time it fell due; a forced one
   * (redelivery) now.
   */
  private async send(merchantId: string, { delivery, webhook }: Claimed, run: DispatchRun, stopping: AbortSignal | undefined, atMs?: number): Promise<Outcome | undefined> {
    const { retry, at, body } = nextAttempt(delivery, atMs === undefined ? undefined : new Date(atMs).toISOString());
    const signature = webhook?.hmac_client_secret ? sign(webhook.hmac_client_secret, body) : '';
    /** `unanswered`: the receiver itself gave no answer (not the webhook gone, not the sandbox stopping, not chaos). */
    const attempt = (status_code: number | null, duration_ms: number, error: string | null, unanswered = false, chaos: 'timeout' | null = null): Outcome => ({
      id: delivery.id,
      attempt: { retry, at, status_code, duration_ms: Math.round(duration_ms * 10) / 10, error, request_body: body, signature, chaos },
      retriable: webhook !== undefined,
      unanswered: unanswered ? error : null,
    });
    if (!webhook) return attempt(null, 0, 'the webhook was deleted');
    const chaos = attemptChaos(delivery);
    // Failed by chaos: no POST, so no place among the POSTs in flight is taken.
    if (chaos === 'fail') return { id: delivery.id, attempt: failedByChaos(delivery, retry, at), retriable: true, unanswered: null };
    // The run's patience counts from here: a wait for a place is part of what a caller waits for.
    const ended = run.watch();
    const posted = this.posts.run(merchantId, async () => {
      if (stopping?.aborted) return undefined;
      const started = performance.now();
      const deadline = new Deadline(this.options.timeoutMs, stopping);
      try {
        const headers = {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}),
          ...(webhook.api_key ? { 'x-api-key': webhook.api_key } : {}),
          ...(webhook.secret ? { 'x-secret': webhook.secret } : {}),
        };
        const url = new URL(delivery.url);
        const status = await postOnce(url, headers, body, deadline.signal, this.destinations.lookupFor(url));
        if (chaos === 'timeout') return attempt(null, performance.now() - started, timedOutByChaos(delivery, status), false, 'timeout');
        return attempt(status, performance.now() - started, null);
      } catch (err) {
        const stopped = stopping?.aborted === true;
        const error = stopped
          ? 'the sandbox stopped during the attempt'
          : deadline.timedOut
            ? `timed out after ${this.options.timeoutMs} ms`
            : this.describeFailure(err as Error);
        const outcome = attempt(null, performance.now() - started, error, !stopped);
        if (outcome.unanswered !== null) run.unanswered.set(delivery.url, outcome.unanswered);
        return outcome;
      } finally {
        deadline.clear();
      }
    });
    return posted.finally(ended);
  }

  /**
   * Why a POST failed, as recorded. With public destinations only, a refused destination says so and
   * nothing else, and a connection error says no more than that (its code, never an address), so
   * recorded errors cannot map what answers where.
   */
  private describeFailure(err: Error): string {
    if (err instanceof DestinationRefused) return err.message;
    if (this.destinations.policy.kind === 'public') return `the connection failed (${(err as { code?: string }).code ?? err.name})`;
    return `${err.message}${(err as { cause?: Error }).cause ? `: ${(err as { cause: Error }).cause.message}` : ''}`;
  }

  /** One attempt of one delivery: claim, send, record. `force` sends even if not due (redelivery), recorded now. */
  async attempt(merchantId: string, deliveryId: string, force: boolean): Promise<DeliveryState | undefined> {
    const nowMs = await this.nowOf(merchantId);
    if (nowMs === undefined) return undefined;
    const claimed = await this.store.withTransaction(merchantId, async (tx) => {
      const d = await tx.get<DeliveryState>('webhook_delivery', deliveryId);
      if (!d) return undefined;
      if (isInFlight(d, Date.now()) || (!force && !isDue(d, nowMs))) return undefined;
      return this.claim(tx, d, await tx.get<WebhookState>('webhook', d.webhook_id));
    });
    if (!claimed) return undefined;
    // Asked for by a request, not by a run of the dispatcher: made to the end even once it stops
    // (the request's own connection is cut at shutdown, and the process does not wait for it).
    const outcome = await this.send(merchantId, claimed, new DispatchRun(), undefined, force ? nowMs : undefined);
    const { recorded, released } = await this.record(merchantId, [outcome], nowMs);
    await this.watchUntilDue(merchantId, nowMs);
    if (released > 0) this.kick(merchantId);
    return recorded[0];
  }
}
