/** Why a check cannot run here (reported as skipped with the reason, never as passed). */
export class Unavailable extends Error {
  override name = 'Unavailable';
}

/** The Unavailable behind an error, however deep a client wrapped it (`cause` after `cause`), if any. */
export function unavailableIn(error: unknown): Unavailable | undefined {
  for (let e = error, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth += 1) {
    if (e instanceof Unavailable) return e;
  }
  return undefined;
}
