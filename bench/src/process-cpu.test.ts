import { describe, expect, it } from 'vitest';
import { cpuSecondsOf } from './process-cpu.js';

describe('a process\'s CPU time', () => {
  it('is what the kernel counts for all its threads, to well under a tick', () => {
    const before = { ours: cpuSecondsOf(process.pid), node: process.cpuUsage() };
    // About 100 ms of work, however little of it the machine grants this process.
    const until = performance.now() + 100;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    const node = process.cpuUsage(before.node);
    const ours = cpuSecondsOf(process.pid) - before.ours;
    expect(x).toBeGreaterThan(0);
    expect(ours).toBeGreaterThan(0);
    // Node's own reading (getrusage) of the same threads over the same stretch.
    expect(Math.abs(ours - (node.user + node.system) / 1e6)).toBeLessThan(0.005);
  });
});
