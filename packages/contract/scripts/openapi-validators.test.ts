/**
 * The committed OpenAPI document, judged by tools nobody here wrote, as a consumer's toolchain
 * would judge it: ajv in strict mode over every schema, Redocly's and Spectral's recommended OpenAPI
 * rules, and a size that a browser renders quickly. Each runs offline.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const documentPath = fileURLToPath(new URL('../openapi.json', import.meta.url));
const text = readFileSync(documentPath, 'utf8');
type Json = Record<string, unknown>;
const doc = JSON.parse(text) as { paths: Record<string, Record<string, Json>>; webhooks: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

/** The most the document may weigh: a browser shows it in a moment, and a route adds little to it. */
const MAX_BYTES = 600 * 1024;

/** ajv 2020 in strict mode, with the components under `components#/$defs/…`; formats and OpenAPI's `discriminator` known. */
function strictAjv(): { ajv: Ajv2020; ref: (schema: unknown) => unknown } {
  const ajv = new Ajv2020({ strict: true, discriminator: true });
  addFormats.default(ajv);
  // OpenAPI points at `#/components/schemas/X`; ajv compiles JSON Schemas, so the components become one schema's `$defs`.
  const ref = (schema: unknown) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/$defs/')) as unknown;
  ajv.addSchema({ $id: 'components', $defs: ref(doc.components.schemas) as Json });
  return { ajv, ref };
}

/** Every schema an operation or webhook holds (parameters, request body, responses), by where it is. */
function operationSchemas(): [string, unknown][] {
  const found: [string, unknown][] = [];
  const walk = (node: unknown, at: string): void => {
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'schema') found.push([at, value]);
      else walk(value, `${at}/${key}`);
    }
  };
  walk(doc.paths, '#/paths');
  walk(doc.webhooks, '#/webhooks');
  return found;
}

describe('openapi.json under ajv strict mode (JSON Schema 2020-12)', () => {
  it('is strict enough to refuse a keyword its type cannot have, and a bare nullable', () => {
    const { ajv } = strictAjv();
    expect(() => ajv.compile({ type: 'object', minLength: 1 })).toThrow(/strict mode/);
    // OpenAPI 3.0's bare `nullable: true`, which the document once carried 261 times.
    expect(() => ajv.compile({ nullable: true })).toThrow(/nullable/);
  });

  it('compiles every component', () => {
    const { ajv } = strictAjv();
    const names = Object.keys(doc.components.schemas);
    expect(names.length).toBeGreaterThan(50);
    for (const name of names) expect(() => ajv.compile({ $ref: `components#/$defs/${name}` }), name).not.toThrow();
  });

  it("compiles every operation's and every webhook's schemas", () => {
    const { ajv, ref } = strictAjv();
    const schemas = operationSchemas();
    expect(schemas.length).toBeGreaterThan(200);
    for (const [at, schema] of schemas) expect(() => ajv.compile(ref(schema) as Json), at).not.toThrow();
  });
});

describe('openapi.json under the linters', () => {
  it("has no error under Redocly's recommended rules", () => {
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    const run = spawnSync(process.execPath, [cli, 'lint', documentPath, '--extends', 'recommended', '--format', 'json'], {
      encoding: 'utf8',
      // No telemetry and no update check: the test runs offline, and sends nothing anywhere.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 64 * 1024 * 1024,
    });
    const report = JSON.parse(run.stdout) as { totals: { errors: number; warnings: number }; problems: { ruleId: string; severity: string; message: string }[] };
    expect(report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals.errors).toBe(0);
    // The one warning left: the servers entry is the sandbox on localhost, which is where it runs.
    expect(report.problems.map((p) => p.ruleId)).toEqual(['no-server-example.com']);
  });

  it("has no error under Spectral's spectral:oas rules", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(text, JsonParser, documentPath));
    // Spectral's severities: 0 error, 1 warning, 2 information, 3 hint.
    expect(results.filter((r) => r.severity === 0).map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`)).toEqual([]);
  });
});

describe('openapi.json is compact', () => {
  it(`weighs at most ${MAX_BYTES / 1024} KB`, () => {
    expect(statSync(documentPath).size).toBeLessThanOrEqual(MAX_BYTES);
  });

  it('refers to every component it declares, and declares every component it refers to', () => {
    const refs = new Set([...text.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
    expect([...refs].sort()).toEqual(Object.keys(doc.components.schemas).sort());
  });
});
