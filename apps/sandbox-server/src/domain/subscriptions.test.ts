import { describe, expect, it } from 'vitest';
import { cycleResultOf } from './subscriptions.js';

describe('cycleResultOf', () => {
  it('reads a paid, declined or pending payment as such, and any other status as an error', () => {
    expect(['SUCCEEDED', 'DECLINED', 'PENDING', 'ERROR', 'CANCELED', 'REJECTED'].map((status) => cycleResultOf({ status }))).toEqual(['SUCCEEDED', 'DECLINED', 'PENDING', 'ERROR', 'ERROR', 'ERROR']);
  });
});
