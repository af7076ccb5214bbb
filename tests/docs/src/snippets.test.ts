import { describe, expect, it } from 'vitest';
import { documentationFiles, isTypeScript, snippetsOf } from './markdown.js';
import { typecheckSnippets } from './typecheck.js';

const snippets = documentationFiles().flatMap((path) => snippetsOf(path)).filter(isTypeScript);
const checked = snippets.filter((s) => s.skip === undefined);

describe('TypeScript snippets in README.md, packages/*/README.md and docs/*.md', () => {
  it('are there to check (the extraction finds the documented examples)', () => {
    expect(checked.map((s) => s.file)).toEqual(expect.arrayContaining(['README.md', 'packages/client/README.md', 'packages/contract/README.md', 'docs/webhooks.md']));
  });

  it('opt out only with a reason', () => {
    const bare = snippets.filter((s) => s.skip === '').map((s) => `${s.file}:${s.line}`);
    expect(bare, 'a `<!-- docs-test: skip -->` marker must say why the snippet cannot compile').toEqual([]);
  });

  it('type-check strictly against the built packages', () => {
    const errors = typecheckSnippets(checked).map((e) => `${e.where}: ${e.message}`);
    expect(errors).toEqual([]);
  }, 120_000);
});
