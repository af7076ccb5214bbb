import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { applyStep, GUIDE, guideSteps, PACKAGES } from './guide.js';
import { REPO_ROOT } from './markdown.js';
import { FILE_MARKER } from './typecheck.js';

/** A copy of the packages under a temporary root, each linked to its installed node_modules. */
function scratchCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-guide-'));
  for (const pkg of PACKAGES) {
    cpSync(join(REPO_ROOT, pkg), join(root, pkg), { recursive: true, filter: (src) => !/[/\\](node_modules|dist|coverage|reports)$/.test(src) });
    symlinkSync(join(REPO_ROOT, pkg, 'node_modules'), join(root, pkg, 'node_modules'), 'dir');
  }
  return root;
}

/**
 * Type-checks the copied sandbox with the copied contract's sources in place of the installed
 * contract, plus the contract's OpenAPI script (its tags are a Record of the domains). Other
 * test files are left out: the guide does not touch them, and they double the time.
 */
function typecheck(root: string, added: ReadonlySet<string>): string[] {
  const sandbox = join(root, 'apps/sandbox-server');
  const contract = join(root, 'packages/contract');
  const parsed = ts.getParsedCommandLineOfConfigFile(join(sandbox, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed) throw new Error('the copied sandbox has no readable tsconfig.json');
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    paths: { '@switchyard/contract': [join(contract, 'src/index.ts')], '@switchyard/contract/*': [join(contract, 'src/*/index.ts')] },
  };
  const roots = [...parsed.fileNames.filter((name) => !name.endsWith('.test.ts') || added.has(name)), join(contract, 'scripts/openapi.ts')];
  const program = ts.createProgram({ rootNames: roots, options });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file && d.start !== undefined ? `${d.file.fileName.slice(root.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '(options)';
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

const steps = guideSteps();

describe(`the guide of ${GUIDE}, "How to add an endpoint"`, () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it('covers a route in an existing domain and a new domain, each step naming where it goes', () => {
    const headings = new Set(steps.map((s) => s.heading));
    expect([...headings]).toEqual(['A route in an existing domain', 'A new domain']);
    expect(steps.filter((s) => FILE_MARKER.test(s.code)).length).toBeGreaterThanOrEqual(4);
  });

  // A hang detector, not a speed goal: one check of the sandbox takes about 30 s on an idle
  // machine; a machine 5-20 times slower, busy with every package's tests, needs minutes.
  it('applied to a scratch copy of the contract and the sandbox, type-checks', () => {
    const root = scratchCopy();
    roots.push(root);
    const added = new Set(steps.map((step) => applyStep(root, step)));
    expect(typecheck(root, added)).toEqual([]);
  }, 900_000);
});
