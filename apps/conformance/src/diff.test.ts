import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeScratchDirs, scratchDir } from '@switchyard/tooling/scratch';
import type { DiffReport } from './diff/compare.js';
import { spawnCli } from './test-support/cli.js';
import { PLANTS, startDivergentProxy } from './test-support/divergences.js';
import { startSandbox } from './test-support/sandbox.js';

let a: Awaited<ReturnType<typeof startSandbox>>;
let b: Awaited<ReturnType<typeof startSandbox>>;
beforeAll(async () => {
  [a, b] = await Promise.all([startSandbox(), startSandbox()]);
});
afterAll(() => Promise.all([a.stop(), b.stop()]));
afterAll(removeScratchDirs);

const dir = scratchDir('diff-');
const readReport = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as DiffReport;

describe('switchyard-conformance diff', () => {
  it('finds no difference between two identical sandboxes over the whole suite, exits 0, and leaves nothing in the temporary directory', async () => {
    const out = join(dir, 'same.json');
    // The recording of each side goes to a directory of its own under the temporary one, removed once read.
    const temporary = scratchDir('diff-tmp-');
    const { code, stdout, stderr } = await spawnCli(['diff', '--base-url', a.url, '--compare-url', b.url, '--reporter', 'json', '--output', out], { env: { TMPDIR: temporary } });
    expect(readdirSync(temporary)).toEqual([]);
    expect(stderr).toBe('');
    const report = readReport(out);
    expect(report.differences).toEqual([]);
    expect(report.unmatched).toEqual({ base: 0, compare: 0 });
    expect(report.compared).toBeGreaterThan(1000);
    expect(report.operations.length).toBeGreaterThanOrEqual(35);
    expect(stdout).toContain('no difference');
    expect(code).toBe(0);
  });

  describe('against a recording, with planted divergences', () => {
    const base = join(dir, 'base.recording.json');
    const planted = join(dir, 'planted.recording.json');
    beforeAll(async () => {
      const proxy = await startDivergentProxy(b.url);
      try {
        // Recorded runs: their own checks may fail (the plants break the contract); the recordings are what counts.
        const runs = await Promise.all([spawnCli(['--base-url', a.url, '--record', base]), spawnCli(['--base-url', proxy.url, '--record', planted])]);
        expect(runs.map((r) => r.code)).toEqual([0, 1]);
      } finally {
        await proxy.close();
      }
      // Two whole runs side by side: as long as a test may take on a loaded machine.
    }, 420_000);

    it('records with the keys, card numbers and security codes masked and the ids kept', () => {
      const text = readFileSync(base, 'utf8');
      expect(text).not.toMatch(/sandbox_sk_[A-Za-z0-9_-]{10,}/);
      expect(text).not.toContain('4111111111111111');
      expect(text).not.toMatch(/"security_code":"\d+"/);
      expect(text).toContain('411111******1111');
      expect(text).toMatch(/"id":"[0-9a-f]{8}-[0-9a-f]{4}-/);
    });

    it('reports each planted divergence exactly once, at its path, and nothing else; exits 1', async () => {
      const out = join(dir, 'planted.json');
      const { code } = await spawnCli(['diff', '--base-recording', base, '--compare-recording', planted, '--reporter', 'json', '--output', out]);
      const report = readReport(out);
      const found = report.differences.map((d) => `${d.operation} ${d.kind} ${d.path}`).sort();
      expect(found).toEqual(PLANTS.map((p) => `${p.operation} ${p.kind} ${p.path}`).sort());
      for (const d of report.differences) expect([d.example.base.method, d.occurrences > 0]).toEqual([d.example.compare.method, true]);
      expect(code).toBe(1);
    });

    it('writes the terminal table, JUnit and a Markdown fidelity report with a curl for both sides', async () => {
      const md = join(dir, 'fidelity.md');
      const xml = join(dir, 'diff.xml');
      const pretty = await spawnCli(['diff', '--base-recording', base, '--compare-recording', planted, '--reporter', 'markdown', '--output', md]);
      await spawnCli(['diff', '--base-recording', base, '--compare-recording', planted, '--reporter', 'junit', '--output', xml]);
      expect(pretty.stdout).toMatch(/createRecipient\s+enum value\s+national_entity\s+INDIVIDUAL\s+PERSON/);
      const markdown = readFileSync(md, 'utf8');
      expect(markdown).toContain('# Fidelity report');
      expect(markdown).toContain('| getSubscription | type | `amount.value` | `number` | `string` |');
      expect((markdown.match(/^curl -i /gm) ?? []).length).toBe(PLANTS.length * 2);
      const junit = readFileSync(xml, 'utf8');
      expect(junit).toMatch(/<testsuites name="switchyard diff" tests="\d+" failures="4">/);
      expect(junit).toContain('<testcase classname="switchyard diff" name="getWebhook"><failure message="2 difference(s)">');
    });

    it('compares a live sandbox against the recording of another: the CI of a team without staging credentials', async () => {
      const out = join(dir, 'live.json');
      const { code } = await spawnCli(['diff', '--base-url', b.url, '--compare-recording', base, '--reporter', 'json', '--output', out]);
      expect(readReport(out).differences).toEqual([]);
      expect(code).toBe(0);
    });

    it('writes its reports under conformance-reports/ by default', async () => {
      const caller = scratchDir('diff-caller-');
      await spawnCli(['diff', '--base-recording', base, '--compare-recording', planted, '--reporter', 'markdown'], { cwd: caller });
      expect(existsSync(join(caller, 'conformance-reports', 'diff.md'))).toBe(true);
    });
  });

  it('exits 2, in one line, when a side is missing or a recording is not one', async () => {
    expect(await spawnCli(['diff', '--base-url', a.url])).toMatchObject({ code: 2, stderr: 'switchyard-conformance: --compare-url or --compare-recording is required (see diff --help)\n' });
    const { code, stderr } = await spawnCli(['diff', '--base-url', a.url, '--compare-recording', join(dir, 'missing.json')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^switchyard-conformance: --compare-recording .*missing\.json: ENOENT[^\n]*\n$/);
  });
});
