/**
 * Sandbox time. Each merchant sees the base time plus its own offset, which only grows
 * (`POST /sandbox/clock/advance`). With a seed the base is frozen at a fixed instant so ids and
 * times are reproducible; otherwise it follows the machine's clock.
 */
export const SEEDED_EPOCH_MS = Date.parse('2026-01-01T00:00:00.000Z');

export class BaseClock {
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
}

export const HOUR_MS = 3600 * 1000;
