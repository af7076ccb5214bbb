import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { upstreamReference } from '@switchyard/tooling/upstream';
import { GENERATED_END, GENERATED_START, compareWithUpstream, renderComparison } from './upstream-comparison.js';

const docPath = fileURLToPath(new URL('../../../docs/contract-vs-upstream.md', import.meta.url));

// shared/ sits beside the repository in CI; a user's clone has no upstream files to compare with.
// vitest evaluates a skipped describe's body too, so nothing is read unless the reference is there.
const upstream = upstreamReference();
if (!upstream.available) console.log(`skipping the contract vs upstream comparison: ${upstream.reason}`);

describe.runIf(upstream.available)('contract vs upstream OpenAPI', () => {
  const rows = upstream.available ? compareWithUpstream() : [];

  it('covers the 14 spec endpoints', () => expect(rows).toHaveLength(14));

  it.each(rows.map((r) => [r.section, r] as const))('§%s: every upstream field is modelled, renamed or excepted with a reason', (_s, row) => {
    expect(row.request.uncovered).toEqual([]);
    expect(row.response.uncovered).toEqual([]);
  });

  it('keeps the generated table in docs/contract-vs-upstream.md current (run `pnpm upstream:doc`)', () => {
    const doc = readFileSync(docPath, 'utf8');
    const generated = doc.slice(doc.indexOf(GENERATED_START), doc.indexOf(GENERATED_END) + GENERATED_END.length);
    expect(generated).toBe(renderComparison(rows));
  });
});
