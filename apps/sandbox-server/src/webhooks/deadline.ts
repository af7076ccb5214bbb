/**
 * An abort signal that fires `ms` after it is made, or as soon as `also` aborts, on a timer this
 * object owns. Not `AbortSignal.any([AbortSignal.timeout(ms), also])`: the combined signal holds
 * its sources weakly, and on Node 20 a garbage collection can drop the time-out signal with its
 * timer, leaving a POST to a receiver that never answers held for minutes. Here the timer and the
 * controller are held by this object until `clear()`, which the caller runs once the attempt ends.
 */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onAlso = () => this.controller.abort(this.also?.reason);

  constructor(
    readonly ms: number,
    private readonly also?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.controller.abort(new DOMException(`timed out after ${ms} ms`, 'TimeoutError')), ms);
    if (also?.aborted) this.onAlso();
    else also?.addEventListener('abort', this.onAlso, { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Whether the time ran out (rather than `also` aborting). */
  get timedOut(): boolean {
    return this.controller.signal.aborted && (this.controller.signal.reason as Error | undefined)?.name === 'TimeoutError';
  }

  clear(): void {
    clearTimeout(this.timer);
    this.also?.removeEventListener('abort', this.onAlso);
  }
}
