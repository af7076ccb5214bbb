import type { Logger } from 'pino';
import { WEBHOOK_SIGNATURE_HEADER } from '@switchyard/contract';
import type { DeliveryState } from '../domain/webhook-delivery.js';
import { MAX_ATTEMPTS, nextRetryDelayMs, type WebhookState } from '../domain/webhook-routing.js';
import type { BaseClock } from '../runtime/clock.js';
import type { Store } from '../store/types.js';
import { sign } from './signer.js';

export interface DispatcherOptions {
  /** Time-out of one POST to a receiver. */
  timeoutMs: number;
  /** Multiplies the retry delays (1 = upstream's schedule; 0.001 turns 5 minutes into 300 ms). */
  timeScale: number;
  /** How often pending deliveries are swept for retries that fell due in real time. */
  sweepMs: number;
}

const USER_AGENT = 'Switchyard-Sandbox-Webhooks/0.1';

/**
 * Sends what the outbox holds. Runs outside the requests that queued the deliveries, so a slow
 * or failing receiver never delays or fails them. Each attempt is claimed in a transaction first,
 * so one delivery is never sent twice at once.
 */
export class WebhookDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private readonly watched = new Set<string>();
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(
    private readonly store: Store,
    private readonly clock: BaseClock,
    private readonly logger: Logger,
    private readonly options: DispatcherOptions,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      for (const merchantId of this.watched) void this.kickNow(merchantId);
    }, this.options.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }

  /** Something was queued for the merchant: send it soon (after the queuing transaction committed). */
  kick(merchantId: string): void {
    this.watched.add(merchantId);
    setTimeout(() => void this.kickNow(merchantId), 5).unref();
  }

  private kickNow(merchantId: string): Promise<void> {
    return this.runDue(merchantId).catch((err: unknown) => this.logger.error({ err, merchantId }, 'webhook dispatch failed'));
  }

  /** Sends every delivery of the merchant that is due on its clock; one run per merchant at a time. */
  runDue(merchantId: string): Promise<void> {
    const current = this.running.get(merchantId);
    if (current) return current.then(() => this.runDue(merchantId));
    const run = this.sendDue(merchantId).finally(() => this.running.delete(merchantId));
    this.running.set(merchantId, run);
    return run;
  }

  private async nowOf(merchantId: string): Promise<number | undefined> {
    const merchant = await this.store.getMerchant(merchantId);
    return merchant ? this.clock.at(merchant.clock_offset_seconds).getTime() : undefined;
  }

  private async sendDue(merchantId: string): Promise<void> {
    if (this.stopped) return;
    const nowMs = await this.nowOf(merchantId);
    if (nowMs === undefined) return;
    const deliveries = await this.store.withTransaction(merchantId, (tx) => tx.list<DeliveryState>('webhook_delivery'));
    const due = deliveries.filter((d) => d.state === 'pending' && d.next_attempt_at !== null && Date.parse(d.next_attempt_at) <= nowMs);
    for (const d of due) await this.attempt(merchantId, d.id, false);
    const stillPending = deliveries.some((d) => d.state === 'pending') || due.length > 0;
    if (!stillPending) this.watched.delete(merchantId);
  }

  /** One attempt: claim, sign the exact bytes, POST, record. `force` sends even if not due (redelivery). */
  async attempt(merchantId: string, deliveryId: string, force: boolean): Promise<DeliveryState | undefined> {
    const nowMs = await this.nowOf(merchantId);
    if (nowMs === undefined) return undefined;
    const claimed = await this.store.withTransaction(merchantId, async (tx) => {
      const d = await tx.get<DeliveryState>('webhook_delivery', deliveryId);
      if (!d) return undefined;
      const inFlight = d.claimed_until_ms !== null && d.claimed_until_ms > Date.now();
      const due = d.state === 'pending' && d.next_attempt_at !== null && Date.parse(d.next_attempt_at) <= nowMs;
      if (inFlight || (!force && !due)) return undefined;
      const webhook = await tx.get<WebhookState>('webhook', d.webhook_id);
      const next = { ...d, claimed_until_ms: Date.now() + this.options.timeoutMs + 1000 };
      await tx.put('webhook_delivery', d.id, next);
      return { delivery: next, webhook };
    });
    if (!claimed) return undefined;
    const { delivery, webhook } = claimed;
    const retry = delivery.attempts.length;
    const { data, ...head } = delivery.envelope;
    const body = JSON.stringify({ ...head, retry, data });
    const signature = webhook?.hmac_client_secret ? sign(webhook.hmac_client_secret, body) : '';
    const started = performance.now();
    let status: number | null = null;
    let error: string | null = null;
    if (!webhook) {
      error = 'the webhook was deleted';
    } else {
      try {
        const res = await fetch(delivery.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': USER_AGENT,
            ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}),
            ...(webhook.api_key ? { 'x-api-key': webhook.api_key } : {}),
            ...(webhook.secret ? { 'x-secret': webhook.secret } : {}),
          },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs),
          redirect: 'manual',
        });
        status = res.status;
        await res.body?.cancel();
      } catch (err) {
        error = (err as Error).name === 'TimeoutError' ? `timed out after ${this.options.timeoutMs} ms` : `${(err as Error).message}${(err as { cause?: Error }).cause ? `: ${(err as { cause: Error }).cause.message}` : ''}`;
      }
    }
    const durationMs = performance.now() - started;
    return this.store.withTransaction(merchantId, async (tx) => {
      const current = (await tx.get<DeliveryState>('webhook_delivery', deliveryId)) ?? delivery;
      const at = new Date(nowMs).toISOString();
      const attempts = [...current.attempts, { retry, at, status_code: status, duration_ms: Math.round(durationMs * 10) / 10, error, request_body: body, signature }];
      const delivered = status === 200;
      const delay = delivered || !webhook ? null : nextRetryDelayMs(attempts.length, this.options.timeScale);
      const next: DeliveryState = {
        ...current,
        attempts,
        claimed_until_ms: null,
        state: delivered ? 'delivered' : delay === null || attempts.length >= MAX_ATTEMPTS ? 'failed' : 'pending',
        next_attempt_at: delivered || delay === null ? null : new Date(nowMs + delay).toISOString(),
      };
      await tx.put('webhook_delivery', next.id, next);
      if (next.state === 'pending') this.watched.add(merchantId);
      return next;
    });
  }
}
