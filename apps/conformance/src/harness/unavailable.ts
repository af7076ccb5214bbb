/** Why a check cannot run here (reported as skipped with the reason, never as passed). */
export class Unavailable extends Error {
  override name = 'Unavailable';
}
