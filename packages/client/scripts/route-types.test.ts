import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRouteTypes, DOMAINS, TYPES_DIR } from './route-types.js';

// Generating compiles the contract's declarations with the TypeScript checker: slow on a busy machine.
const GENERATE_TIMEOUT_MS = 300_000;

describe('src/types', () => {
  it(
    'is up to date with the contract (run `pnpm route-types` to regenerate)',
    async () => {
      const files = await buildRouteTypes();
      expect(readdirSync(TYPES_DIR).sort()).toEqual([...files.keys()].sort());
      for (const [name, content] of files) expect(readFileSync(path.join(TYPES_DIR, name), 'utf8'), name).toBe(content);

      // One route table per domain; the files import one another only, never a library.
      for (const d of DOMAINS) expect(files.get(`${d.module}.ts`)).toContain(`export interface ${d.routes} {`);
      for (const [name, content] of files) {
        const imports = [...content.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
        expect(imports.every((from) => /^\.\/[\w-]+\.js$/.test(from ?? '')), name).toBe(true);
      }

      // A shape the contract names is declared once, under one name, and referenced elsewhere:
      // the shared vocabulary in shared.ts, a webhook event's payment as the payments domain's `Payment`.
      const declared = [...files.values()].flatMap((content) => [...content.matchAll(/^export (?:interface|type) (\w+)/gm)].map((m) => m[1]));
      expect(declared.length).toBe(new Set(declared).size);
      for (const name of ['Address', 'PostalAddressOut', 'Amount', 'Document', 'Phone', 'MetadataItem']) expect(files.get('shared.ts')).toContain(`export interface ${name} {`);
      // The address lines are written once: a customer's address adds its neighborhood, a banking address is them.
      expect(files.get('shared.ts')).toContain('export interface AddressOut extends PostalAddressOut {');
      expect(files.get('banking.ts')).toContain('address: PostalAddressOut;');
      expect(files.get('webhooks.ts')).toContain("import type { Payment } from './payments.js';");

      // What the routers add to every route is declared once and referenced: no route writes the
      // common errors or the API-key headers out again.
      for (const name of ['CommonErrorResponses', 'KeyHeaders']) expect(files.get('shared.ts')).toContain(`export interface ${name} {`);
      expect(files.get('shared.ts')).toContain('export interface IdempotencyKeyHeaders extends KeyHeaders {');
      for (const d of DOMAINS) {
        const routes = files.get(`${d.module}.ts`) ?? '';
        expect(routes, d.module).not.toContain("'public-api-key'");
        expect(routes, d.module).not.toMatch(/^\s*401: ApiError;/m);
      }
      // A declared object with every member of another extends it: a beneficial owner is an individual plus owner fields.
      expect(files.get('banking.ts')).toContain('export interface BeneficialOwner extends IndividualDetail {');
    },
    GENERATE_TIMEOUT_MS,
  );
});
