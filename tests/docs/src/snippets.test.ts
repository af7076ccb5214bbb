import { describe, expect, it } from 'vitest';
import { documentationFiles, isTypeScript, snippetsOf } from './markdown.js';
import { isGuideStep } from './guide.js';
import { typecheckSnippets } from './typecheck.js';

const snippets = documentationFiles().flatMap((path) => snippetsOf(path)).filter(isTypeScript);
// The steps of docs/architecture.md's guide are checked by guide.test.ts, applied together to a
// scratch copy: alone, a step that edits a file cannot compile.
const checked = snippets.filter((s) => s.skip === undefined && !isGuideStep(s));

describe('TypeScript snippets in README.md, packages/*/README.md and docs/*.md', () => {
  it('are there to check (the extraction finds the documented examples)', () => {
    expect(checked.map((s) => s.file)).toEqual(expect.arrayContaining(['README.md', 'packages/client/README.md', 'packages/contract/README.md', 'docs/webhooks.md']));
  });

  it('opt out only with a reason', () => {
    const bare = snippets.filter((s) => s.skip === '').map((s) => `${s.file}:${s.line}`);
    expect(bare, 'a `<!-- docs-test: skip -->` marker must say why the snippet cannot compile').toEqual([]);
  });

  // A hang detector, not a speed goal: one type-check of every snippet takes about 11 s on an idle
  // machine, and a machine 5-20 times slower, busy with every package's tests, needs minutes.
  it('type-check strictly against the built packages', () => {
    const errors = typecheckSnippets(checked).map((e) => `${e.where}: ${e.message}`);
    expect(errors).toEqual([]);
  }, 600_000);
});

describe('snippets placed with `// file: <path>`', () => {
  it('never stand in for a file the repository has', () => {
    const snippet = { file: 'example.md', line: 1, lang: 'ts', code: '// file: README.md\n', heading: '' };
    expect(() => typecheckSnippets([snippet])).toThrow('example.md:1: the snippet\'s file README.md already exists in the repository');
  });
});
