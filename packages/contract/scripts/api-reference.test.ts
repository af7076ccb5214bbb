import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { contract, listRoutes, sandboxContract } from '../src/index.js';
import { API_REFERENCE_COMMAND, renderApiReference } from './api-reference.js';
import { UNREAD_CHECK } from './zod-fields.js';

const referencePath = fileURLToPath(new URL('../../../docs/api-reference.md', import.meta.url));
const rendered = renderApiReference();

describe('docs/api-reference.md', () => {
  it(`is up to date with the contract (run \`${API_REFERENCE_COMMAND}\` to regenerate)`, () => {
    const committed = readFileSync(referencePath, 'utf8');
    expect(committed, `docs/api-reference.md is stale: run \`${API_REFERENCE_COMMAND}\` from the repository root`).toBe(rendered);
  });

  it('has a section for every route, sandbox control API included', () => {
    for (const { meta, route } of [...listRoutes(contract), ...listRoutes(sandboxContract)]) {
      expect(rendered, meta.operationId).toContain(`<a id="${meta.operationId.toLowerCase()}"></a>${route.summary ?? meta.operationId}`);
    }
  });

  it('reads the message of every custom field check (a new kind of check needs a probe in zod-fields.ts)', () => {
    expect(rendered).not.toContain(UNREAD_CHECK);
  });

  it.each([
    ['the range and decimals of amounts', '| `amount.value` | number | yes | ≥ 0.0001; ≤ 9999999999; must be a multiple of 0.0001 (at most 4 decimals) |'],
    ['the §8 length of merchant_reference', '| `merchant_reference` | string | yes | 3–255 chars |'],
    ['array item limits (§8 customer metadata)', '| `metadata` | array of object | no | at most 50 items |'],
    ['the dispute evidence size (§8)', 'must decode to at most 1048576 bytes (1 MB)'],
    ['the UUID idempotency key of 4.4 and 4.8', '- Idempotency: `x-idempotency-key` required (format uuid)'],
    ['the idempotency key of the other idempotent routes', '- Idempotency: `x-idempotency-key` required (1–255 chars)'],
    ['patterns, with table pipes escaped', 'pattern `^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==\\|[A-Za-z0-9+/]{3}=)?$`'],
  ])('renders %s from the schemas', (_what, line) => {
    expect(rendered).toContain(line);
  });
});
