/**
 * Sandbox time. Each merchant sees the base time plus its own offset, which only grows
 * (`POST /sandbox/clock/advance`). With a seed the base is frozen at a fixed instant so ids and
 * times are reproducible; otherwise it follows the machine's clock.
 */
export const SEEDED_EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');

export class BaseClock {
  private lastIsoMs = Number.NaN;
  private lastIso = '';

  constructor(private readonly frozenAtMs: number | undefined) {}

  get frozen(): boolean {
    return this.frozenAtMs !== undefined;
  }

  nowMs(): number {
    return this.frozenAtMs ?? Date.now();
  }

  /** The merchant's current time. */
  at(offsetSeconds: number): Date {
    return new Date(this.nowMs() + offsetSeconds * 1000);
  }

  /**
   * `at(offsetSeconds).toISOString()`. A request stamps several records within the same
   * millisecond, and formatting a date showed in profiles: the last one is kept.
   */
  isoAt(offsetSeconds: number): string {
    const ms = this.nowMs() + offsetSeconds * 1000;
    if (ms !== this.lastIsoMs) {
      this.lastIso = new Date(ms).toISOString();
      this.lastIsoMs = ms;
    }
    return this.lastIso;
  }
}

export const HOUR_MS = 3600 * 1000;
