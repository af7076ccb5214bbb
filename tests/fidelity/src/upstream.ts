/**
 * Reads the upstream OpenAPI files (one per operation, as published) into the operations and
 * request examples the suite replays.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolveRef } from '@switchyard/tooling/upstream';

export type Json = Record<string, unknown>;

export interface UpstreamOperation {
  /** The file below `openapi/`, for example Create Payment. */
  file: string;
  method: string;
  /** Upstream's path template, without the `/v1` of its server URL. */
  path: string;
  doc: Json;
  operation: Json;
}

export interface UpstreamExample {
  operation: UpstreamOperation;
  /** The example's key upstream (`POST example` for a lone `example`). */
  name: string;
  /** `file#name`: how docs/fidelity.md names the example. */
  id: string;
  value: unknown;
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : entry.name.endsWith('.json') ? [join(dir, entry.name)] : []))
    .sort();
}

export function readOperations(openapiDir: string): UpstreamOperation[] {
  return walk(openapiDir).flatMap((path) => {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
    const file = relative(openapiDir, path);
    return Object.entries(doc.paths as Json).flatMap(([template, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => HTTP_METHODS.has(method))
        .map(([method, operation]) => ({ file, method: method.toUpperCase(), path: template, doc, operation: operation as Json })),
    );
  });
}

export function requestExamples(operation: UpstreamOperation): UpstreamExample[] {
  const body = resolveRef(operation.doc, operation.operation.requestBody);
  const media = (body.content as Json | undefined)?.['application/json'] as Json | undefined;
  if (!media) return [];
  const entries: [string, unknown][] = media.examples
    ? Object.entries(media.examples as Json).map(([name, example]) => [name, resolveRef(operation.doc, example).value])
    : 'example' in media
      ? [[`${operation.method} example`, media.example]]
      : [];
  return entries.map(([name, value]) => ({ operation, name, id: `${operation.file}#${name}`, value }));
}

export function requestSchema(operation: UpstreamOperation): unknown {
  const body = resolveRef(operation.doc, operation.operation.requestBody);
  return ((body.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
}

/**
 * The 2xx statuses upstream documents for the operation, lowest first. A bare code with neither a
 * description nor a body (the onboarding's `200: {}`) documents nothing.
 */
export function successStatuses(operation: UpstreamOperation): number[] {
  const responses = operation.operation.responses as Json;
  return Object.keys(responses)
    .filter((code) => /^2\d\d$/.test(code))
    .filter((code) => {
      const response = resolveRef(operation.doc, responses[code]);
      return Boolean(response.description) || response.content !== undefined;
    })
    .map(Number)
    .sort((a, b) => a - b);
}

/**
 * The status upstream documents for this example: the 2xx response that carries an example of
 * the same name (an operation with several success statuses pairs them that way), else the lowest.
 */
export function documentedStatus(example: UpstreamExample): number {
  const statuses = successStatuses(example.operation);
  const paired = statuses.find((status) => {
    const response = resolveRef(example.operation.doc, (example.operation.operation.responses as Json)[String(status)]);
    const examples = ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.examples as Json | undefined;
    return examples !== undefined && example.name in examples;
  });
  const status = paired ?? statuses[0];
  if (status === undefined) throw new Error(`${example.id}: upstream documents no success status`);
  return status;
}

export function responseSchema(operation: UpstreamOperation, status: number): unknown {
  const response = resolveRef(operation.doc, (operation.operation.responses as Json)[String(status)]);
  return ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
}

/** Upstream's own answer to the example: the response example of the same name for `status`, if it publishes one. */
export function responseExample(example: UpstreamExample, status: number): unknown {
  const response = resolveRef(example.operation.doc, (example.operation.operation.responses as Json)[String(status)]);
  const examples = ((response.content as Json | undefined)?.['application/json'] as Json | undefined)?.examples as Json | undefined;
  const named = examples?.[example.name];
  return named === undefined ? undefined : resolveRef(example.operation.doc, named).value;
}
