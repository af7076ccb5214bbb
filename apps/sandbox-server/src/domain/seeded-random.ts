/**
 * One step of mulberry32: a uniform number in [0, 1) and the next state. Fault rules and webhook
 * chaos rules keep this state in their record, so a seeded run repeats, and every replica draws
 * the same sequence from the same stored state.
 */
export function nextRandom(state: number): { value: number; state: number } {
  const next = (state + 0x6d2b79f5) >>> 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, state: next };
}
