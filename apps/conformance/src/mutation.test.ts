import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from './test-support/cli.js';
import { CATCHES, catchTable, DOC, runArgs, TABLE_END, TABLE_START } from './test-support/catches.js';
import { FAULTS, startFaultProxy } from './test-support/fault-proxy.js';
import { useSandbox } from './test-support/sandbox.js';

const sandbox = useSandbox();

describe('the runner has teeth: each injected fault fails the check that names it', () => {
  it('covers every fault the proxy knows, each once', () => {
    expect(CATCHES.map((c) => c[0]).sort()).toEqual([...FAULTS].sort());
    expect(FAULTS.length).toBeGreaterThanOrEqual(40);
  });

  it('docs/conformance.md shows this table, as `pnpm catch-table` writes it', () => {
    const doc = readFileSync(DOC, 'utf8');
    expect(doc.slice(doc.indexOf(TABLE_START), doc.indexOf(TABLE_END) + TABLE_END.length)).toBe(`${TABLE_START}\n${catchTable()}${TABLE_END}`);
  });

  // Each fault is its own runner process against its own proxy and tenants: run them side by side.
  it.concurrent.each(CATCHES)('%s → %s fails on %s', async (...c) => {
    const [fault, check, operationId] = c;
    const proxy = await startFaultProxy(sandbox.url(), fault);
    try {
      const { code, report } = await runCli(['--base-url', proxy.url, ...runArgs(c)]);
      // A run that stopped (a set-up that timed out on a loaded machine) says so here rather than as a missing failure.
      expect(report.errors).toEqual([]);
      const failed = report.tests.filter((t) => t.outcome === 'fail');
      expect(failed.map((t) => `${t.operationId} › ${t.check}`)).toContain(`${operationId} › ${check}`);
      expect(code).toBe(1);
      const message = failed.find((t) => t.operationId === operationId && t.check === check)?.message ?? '';
      expect(message).not.toMatch(/sandbox_sk_[A-Za-z0-9_-]{10,}/);
    } finally {
      await proxy.close();
    }
  });
});
