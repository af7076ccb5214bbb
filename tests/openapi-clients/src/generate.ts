/**
 * Generates a client from the contract's OpenAPI document with each outside generator, as a
 * consumer would: @hey-api/openapi-ts (a fetch client, its SDK and types) and openapi-typescript
 * (types for openapi-fetch). Both write under `.generated/`, which is not committed.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import openapiTS, { astToString } from 'openapi-typescript';

const require = createRequire(import.meta.url);
export const OPENAPI_DOCUMENT = require.resolve('@switchyard/contract/openapi.json');
export const GENERATED_DIR = fileURLToPath(new URL('../.generated/', import.meta.url));
export const HEY_API_DIR = `${GENERATED_DIR}hey-api`;
export const OPENAPI_TYPESCRIPT_DIR = `${GENERATED_DIR}openapi-typescript`;

export async function generateHeyApiClient(): Promise<void> {
  rmSync(HEY_API_DIR, { recursive: true, force: true });
  // `.js` on relative imports: the generated code compiles under NodeNext resolution, as an ESM package's would.
  await createClient({ input: OPENAPI_DOCUMENT, output: { path: HEY_API_DIR, importFileExtension: '.js' }, plugins: ['@hey-api/client-fetch'], logs: { level: 'silent' } });
}

export async function generateOpenapiTypescriptTypes(): Promise<void> {
  rmSync(OPENAPI_TYPESCRIPT_DIR, { recursive: true, force: true });
  mkdirSync(OPENAPI_TYPESCRIPT_DIR, { recursive: true });
  // A `.ts` file rather than `.d.ts`, so that the compiler checks it (it skips declaration files of libraries).
  // defaultNonNullable off: a request field with a default (a subscription's `frequency.value`) may be left out.
  const ast = await openapiTS(pathToFileURL(OPENAPI_DOCUMENT), { defaultNonNullable: false });
  writeFileSync(`${OPENAPI_TYPESCRIPT_DIR}/schema.ts`, astToString(ast));
}
