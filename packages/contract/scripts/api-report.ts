/**
 * The public API report of `@switchyard/contract` (`api/contract.api.md`): every export of every
 * entry point, from the built package (`dist/`), as a consumer imports it.
 *
 *   tsx scripts/api-report.ts           rewrites the report (commit it with the change)
 *   tsx scripts/api-report.ts --check   fails when the built API differs from the committed report
 *
 * The other published packages' reports come from @microsoft/api-extractor. The contract's
 * declarations hold zod's inferred types (megabytes of them: docs/type-check-budget.md), which API
 * Extractor does not get through in any useful time, and which no reviewer could read in a diff. So
 * a zod schema is reported as the JSON Schema it accepts (the same writer as openapi.json, with
 * every other named schema as a `$ref`), a router as its routes and the schemas each names, and
 * everything else by its declaration as the `.d.ts` has it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { z } from 'zod';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { SchemaWriter, schemaNames, type JsonSchema } from './json-schema.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const REPORT = path.join(packageDir, 'api', 'contract.api.md');

interface Entry {
  subpath: string;
  types: string;
  module: string;
}

function entries(): Entry[] {
  const manifest = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')) as { exports: Record<string, { import?: { types: string; default: string } } | string> };
  return Object.entries(manifest.exports).flatMap(([subpath, target]) =>
    typeof target === 'object' && target.import ? [{ subpath, types: path.join(packageDir, target.import.types), module: path.join(packageDir, target.import.default) }] : [],
  );
}

/** The declarations of every export of each entry point, by export name, as the `.d.ts` files write them. */
function declarations(list: Entry[]): Map<string, Map<string, string[]>> {
  const program = ts.createProgram(
    list.map((e) => e.types),
    { noEmit: true, skipLibCheck: true, types: [], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext },
  );
  const checker = program.getTypeChecker();
  const out = new Map<string, Map<string, string[]>>();
  for (const entry of list) {
    const file = program.getSourceFile(entry.types);
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`cannot read ${entry.types}`);
    const byName = new Map<string, string[]>();
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const texts = (symbol.declarations ?? []).map((d) => {
        const node = ts.isVariableDeclaration(d) ? d.parent.parent : d;
        return node.getText().replace(/^export (declare )?/, '').replace(/\n\s*/g, ' ');
      });
      byName.set(exported.name, texts);
    }
    out.set(entry.subpath, byName);
  }
  return out;
}

/** A ts-rest router: an object of routes and routers (two levels at most, as the contract nests them). */
function isRouter(value: unknown, depth = 0): value is AppRouter {
  if (depth > 2 || !value || typeof value !== 'object' || Array.isArray(value) || value instanceof z.ZodType) return false;
  const leaves = Object.values(value);
  return leaves.length > 0 && leaves.every((v) => (typeof v === 'object' && v !== null && isAppRoute(v)) || isRouter(v, depth + 1));
}

function routeLines(router: AppRouter, writer: SchemaWriter, prefix = ''): string[] {
  return Object.entries(router).flatMap(([name, value]) => {
    if (!isAppRoute(value)) return routeLines(value, writer, `${prefix}${name}.`);
    const route = value as AppRoute;
    const part = (label: string, schema: unknown, direction: 'input' | 'output') =>
      schema instanceof z.ZodType ? [`    ${label}:`, ...schemaLines(writer.write(schema, direction), '      ')] : [];
    return [
      `  ${prefix}${name}: ${route.method} ${route.path}`,
      ...part('params', route.pathParams, 'input'),
      ...part('query', route.query, 'input'),
      ...part('headers', route.headers, 'input'),
      ...part('body', 'body' in route ? route.body : undefined, 'input'),
      ...Object.entries(route.responses).flatMap(([status, schema]) => part(String(status), schema, 'output')),
    ];
  });
}

/**
 * A schema one property a line, nested objects indented, anything else as compact JSON: a change
 * to one field is a one-line diff.
 */
function schemaLines(schema: JsonSchema | undefined, indent = ''): string[] {
  if (!schema) return [];
  const { properties, ...rest } = schema as { properties?: Record<string, JsonSchema> };
  if (!properties) return [`${indent}${JSON.stringify(schema)}`];
  return [
    `${indent}${JSON.stringify(rest)} with properties:`,
    ...Object.entries(properties).flatMap(([name, property]) => {
      const [first = '', ...more] = schemaLines(property, `${indent}  `);
      return [`${indent}  ${name}: ${first.trimStart()}`, ...more];
    }),
  ];
}

/** The report's text. */
export async function buildApiReport(): Promise<string> {
  const list = entries();
  const modules = new Map<string, Record<string, unknown>>();
  for (const e of list) modules.set(e.subpath, (await import(pathToFileURL(e.module).href)) as Record<string, unknown>);
  const names = schemaNames(Object.assign({}, ...modules.values()) as Record<string, unknown>);
  const writer = new SchemaWriter(names);
  const declared = declarations(list);
  // Every export name, with the entry points that export it.
  const exporters = new Map<string, string[]>();
  for (const [subpath, byName] of declared) for (const name of byName.keys()) exporters.set(name, [...(exporters.get(name) ?? []), subpath]);
  const sections: string[] = [];
  for (const name of [...exporters.keys()].sort()) {
    const from = exporters.get(name) as string[];
    const value = from.map((s) => modules.get(s)?.[name]).find((v) => v !== undefined);
    const texts = declared.get(from[0] as string)?.get(name) ?? [];
    const lines: string[] = [];
    if (value instanceof z.ZodType) {
      const output = writer.write(value, 'output');
      const input = writer.write(value, 'input');
      const body = (ref: JsonSchema) => writer.components.get(String(ref.$ref).split('/').pop() as string);
      lines.push('schema', ...schemaLines(body(output), '  '));
      if (JSON.stringify(input) !== JSON.stringify(output)) lines.push('schema (input)', ...schemaLines(body(input), '  '));
      lines.push(...texts.filter((t) => !/^const /.test(t)));
    } else if (isRouter(value)) {
      lines.push('router', ...routeLines(value, writer));
    } else {
      lines.push(...texts);
    }
    sections.push(`${name} (${from.map((s) => `'${s}'`).join(', ')})\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
  return [
    '# API report of @switchyard/contract',
    '',
    'Generated by `scripts/api-report.ts` from the built package: do not edit (run `pnpm api-report`). Each export, the entry points that export it, and what it is: a zod schema as the JSON Schema it accepts (`$ref`s name the other exported schemas), a router as its routes, anything else as its declaration. A change here is a change of the public API: docs/releasing.md says which version bump it needs.',
    '',
    '```text',
    ...sections,
    '```',
    '',
  ].join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const report = await buildApiReport();
  if (process.argv.includes('--check')) {
    let committed = '';
    try {
      committed = readFileSync(REPORT, 'utf8');
    } catch {
      // No report yet: it differs.
    }
    if (committed !== report) {
      console.error('@switchyard/contract: the public API differs from api/contract.api.md. Review the change (docs/releasing.md says which version bump it needs), then run `pnpm api-report` in packages/contract and commit the report.');
      process.exit(1);
    }
    console.log('@switchyard/contract: the API report matches the build');
  } else {
    writeFileSync(REPORT, report);
    console.log(`wrote ${REPORT}`);
  }
}
