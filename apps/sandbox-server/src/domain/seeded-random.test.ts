import { describe, expect, it } from 'vitest';
import { nextRandom } from './seeded-random.js';

describe('nextRandom', () => {
  const run = (seed: number, n: number) => {
    let state = seed;
    return Array.from({ length: n }, () => {
      const step = nextRandom(state);
      state = step.state;
      return step.value;
    });
  };

  it('repeats a seeded sequence, differs between seeds, and stays in [0, 1)', () => {
    expect(run(42, 50)).toEqual(run(42, 50));
    expect(run(42, 50)).not.toEqual(run(43, 50));
    const values = run(7, 1000);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    // Roughly uniform: each half of [0, 1) gets a fair share of 1000 draws.
    const low = values.filter((v) => v < 0.5).length;
    expect(low).toBeGreaterThan(400);
    expect(low).toBeLessThan(600);
  });
});
