/**
 * The walkthroughs a new reader runs first, read from the documentation itself so they cannot
 * drift: the root README's "Try the sandbox" curl commands, the client README's quick start and
 * the curl commands of docs/faults.md's first recipe. Each runs twice against one sandbox, as a
 * reader trying it again would.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, DEMO_MERCHANT, loadConfig, type Sandbox, type SandboxConfig } from '@switchyard/sandbox-server';
import { isTypeScript, REPO_ROOT, snippetUnder } from './markdown.js';

const run = promisify(execFile);

/**
 * Each walkthrough is a shell with node and a few curls: a second or two on an idle machine. With
 * two other test suites running beside this one, a run of faults.md's recipe passed 30 s. The
 * limits detect a hang; they measure nothing.
 */
const COMMAND_TIMEOUT_MS = 300_000;
vi.setConfig({ testTimeout: COMMAND_TIMEOUT_MS + 30_000 });

/** The address the documentation uses; each walkthrough gets the test sandbox's instead. */
const DOCUMENTED_ADDRESS = 'localhost:4010';

let sandbox: Sandbox;
let address: string;
beforeAll(async () => {
  sandbox = await createSandbox({ ...(loadConfig([], {}) as SandboxConfig), port: 0, logLevel: 'silent' });
  address = new URL(await sandbox.start()).host;
});
afterAll(() => sandbox.stop());

describe('README.md "Try the sandbox"', () => {
  const snippet = snippetUnder(join(REPO_ROOT, 'README.md'), 'Try the sandbox', (s) => s.lang === 'sh');
  // The documented outcome is the comment after the commands: `# → 201 with "status":"DECLINED" and ...`.
  const outcome = /^# → (\d{3}) with (.*)$/m.exec(snippet.code);
  const status = outcome?.[1];
  const fields = [...(outcome?.[2] ?? '').matchAll(/"\w+":"\w+"/g)].map((m) => m[0]);

  it('documents the outcome it promises', () => {
    expect(status).toBe('201');
    expect(fields).toEqual(['"status":"DECLINED"', '"response_code":"INSUFFICIENT_FUNDS"']);
  });

  it.each([1, 2])('gives that outcome when the commands run (run %i)', async () => {
    const commands = snippet.code.replaceAll(DOCUMENTED_ADDRESS, address);
    expect(commands).not.toBe(snippet.code);
    // Every curl also writes its HTTP status to stderr; stdout stays what the reader sees.
    const statusOnStderr = `curl() { command curl --write-out '%{stderr}%{http_code}\\n' "$@"; }\n`;
    const { stdout, stderr } = await run('bash', ['-c', statusOnStderr + commands], { timeout: COMMAND_TIMEOUT_MS });
    const statuses = stderr.trim().split('\n');
    // One status per curl of the walkthrough: the steps before the last succeed, the last is the documented one.
    expect(statuses, `${snippet.file}:${snippet.line}`).toHaveLength(snippet.code.match(/\bcurl /g)?.length ?? 0);
    expect(statuses.slice(0, -1).every((s) => s.startsWith('2')), `${snippet.file}:${snippet.line}: ${statuses.join(', ')}`).toBe(true);
    expect(statuses.at(-1), `${snippet.file}:${snippet.line}`).toBe(status);
    for (const field of fields) expect(stdout, `${snippet.file}:${snippet.line}`).toContain(field);
  });
});

describe('packages/client/README.md "Quick start"', () => {
  const snippet = snippetUnder(join(REPO_ROOT, 'packages/client/README.md'), 'Quick start', isTypeScript);
  // What the reader should see: the trailing comment of every console.log line, in order.
  const expected = [...snippet.code.matchAll(/^console\.log\(.*\); \/\/ (.*)$/gm)].map((m) => m[1]);
  // In this package's node_modules, so that `@switchyard/client` resolves to the workspace package.
  const dir = fileURLToPath(new URL('../node_modules/.cache/docs-walkthrough/', import.meta.url));

  beforeAll(() => mkdirSync(dir, { recursive: true }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('documents what it prints', () => expect(expected.length).toBeGreaterThan(0));

  it.each([1, 2])('prints that when run as code (run %i)', async (n) => {
    const source = snippet.code.replaceAll(`http://${DOCUMENTED_ADDRESS}`, `http://${address}`);
    expect(source).not.toBe(snippet.code);
    const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    const file = join(dir, `quick-start-${n}.mjs`);
    writeFileSync(file, outputText);
    const env = { ...process.env, PUBLIC_API_KEY: DEMO_MERCHANT.public_api_key, PRIVATE_SECRET_KEY: DEMO_MERCHANT.private_secret_key };
    const { stdout } = await run(process.execPath, [file], { env, timeout: COMMAND_TIMEOUT_MS });
    expect(stdout.trim().split('\n'), `${snippet.file}:${snippet.line}`).toEqual(expected);
  });
});

describe('docs/faults.md recipe 1 with curl', () => {
  const faults = join(REPO_ROOT, 'docs/faults.md');
  const isShell = (s: { lang: string }) => s.lang === 'sh';
  // The recipe runs after the page's opening block, which defines KEYS.
  const keys = snippetUnder(faults, 'Faults on demand', isShell);
  const recipe = snippetUnder(faults, '1. The response is lost after the commit: retry with the same idempotency key', isShell);
  // The reader's working directory, where the recipe writes payment.json.
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'faults-recipe-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('documents what each call answers', () => {
    expect(recipe.code).toContain('# curl: (52) Empty reply from server');
    expect(recipe.code).toContain('# HTTP/1.1 201 ... idempotent-replayed: true');
  });

  it.each([1, 2])('commits on the dropped call and replays it on the retry (run %i)', async () => {
    const commands = `${keys.code}\n${recipe.code}`.replaceAll(DOCUMENTED_ADDRESS, address);
    expect(commands).not.toContain(DOCUMENTED_ADDRESS);
    const { stdout, stderr } = await run('bash', ['-c', commands], { cwd: dir, timeout: COMMAND_TIMEOUT_MS });
    const where = `${recipe.file}:${recipe.line}`;
    expect(stderr.trim(), where).toBe('curl: (52) Empty reply from server');
    expect(stdout, where).toMatch(/^HTTP\/1\.1 201 Created\r?$/m);
    expect(stdout, where).toMatch(/^idempotent-replayed: true\r?$/im);
  });
});
