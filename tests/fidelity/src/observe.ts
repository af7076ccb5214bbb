/**
 * Sends one upstream example to the sandbox, first as published then (if refused) with its stale
 * data fixed, and records what came back: the status, the error code, and the response body's
 * divergences from upstream's response schema for the documented status.
 */
import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_HEADER } from '@switchyard/contract';
import { asPublished, staleDataFixed } from './adjust.js';
import { prepare } from './prerequisites.js';
import type { Renamer } from './renames.js';
import { ourRoute } from './routes.js';
import type { SchemaChecker } from './schema-check.js';
import { documentedStatus, requestSchema, responseExample, responseSchema, type Json, type UpstreamExample } from './upstream.js';
import type { World } from './world.js';

export type Outcome = 'published' | 'stale-data fixed' | 'refused';

export interface Observation {
  example: UpstreamExample;
  expected: number;
  /** How the example was accepted (upstream's documented status), or that it was not. */
  outcome: Outcome;
  /** The status of the last attempt. */
  status: number;
  /** How today's answer is recorded in docs/fidelity.md (see `describeAnswer`). */
  answer: string;
  /** The example's own breaches of upstream's request schema (before renames). */
  requestErrors: string[];
  /** The response body's breaches of upstream's (renamed) response schema for `expected`. */
  responseErrors: string[];
  /** The last attempt's body, to show when a check fails. */
  body: unknown;
}

/**
 * The response shape upstream documents for this example. Upstream lists one `oneOf` alternative
 * per example, titled like it; the alternatives overlap (open objects), so "exactly one" can never
 * hold. The alternative titled like the example is taken; without one, any alternative may match.
 */
export function documentedShape(schema: unknown, exampleName: string): unknown {
  const alternatives = (schema as Json | undefined)?.oneOf;
  if (!Array.isArray(alternatives)) return schema;
  const titled = alternatives.find((alternative) => (alternative as Json).title === exampleName);
  if (titled) return titled;
  const { oneOf: _, ...rest } = schema as Json;
  return { ...rest, anyOf: alternatives };
}

/**
 * Upstream's response schemas mark no property required, yet its answers carry every top-level
 * property the schema documents (its response examples show them all). Without this a capture
 * answering a payment would pass a transaction envelope's schema. Nested objects stay as
 * documented: which of them appear depends on the method (card, wallet, bank transfer). A property
 * upstream documents as conditional stays optional too: its description begins "Only present"
 * (a subscription's plan fields, "Only present on plan-linked subscriptions", which its example
 * leaves out; Create Subscription), and so does one upstream's own answer to the example
 * gives as `null` (`nullInAnswer`).
 */
function isConditional(property: unknown): boolean {
  const description = (property as Json | undefined)?.description;
  return typeof description === 'string' && description.startsWith('Only present');
}

/**
 * The top-level properties upstream's own answer to the example gives as `null`: it holds no value
 * for them, so an answer may leave them out, as the sandbox does with an object not sent
 * (docs/fidelity.md, "Absent values"; upstream's "Customer (min. data)" answers `document: null`).
 */
export function nullInAnswer(answer: unknown): Set<string> {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return new Set();
  return new Set(Object.entries(answer as Json).filter(([, value]) => value === null).map(([name]) => name));
}

export function requireTopLevel(schema: unknown, absent: ReadonlySet<string> = new Set()): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  const node = schema as Json;
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: node.anyOf.map((alternative) => requireTopLevel(alternative, absent)) };
  const properties = node.properties as Json | undefined;
  if (!properties) return schema;
  const always = Object.keys(properties).filter((name) => !isConditional(properties[name]) && !absent.has(name));
  return { ...node, required: [...new Set([...((node.required as string[] | undefined) ?? []), ...always])] };
}

/** `400 INVALID_REQUEST: checkout; amount.value`: the status, the code and the fields the messages name. */
export function describeAnswer(status: number, body: unknown): string {
  const error = status >= 400 && body && typeof body === 'object' ? (body as Json) : undefined;
  if (!error) return String(status);
  const messages = Array.isArray(error.messages) ? error.messages.filter((m): m is string => typeof m === 'string') : [];
  const fields = [...new Set(messages.map((m) => /^body\.([^:]+):/.exec(m)?.[1]).filter((f): f is string => f !== undefined))];
  return `${status} ${String(error.code)}${fields.length > 0 ? `: ${fields.join('; ')}` : ''}`;
}

export interface Observer {
  /**
   * `deliberateStatus`: a status docs/fidelity.md records as a deliberate deviation (the spec's
   * code where upstream documents another); it counts as accepted, and the body is still checked
   * against upstream's schema for the documented status.
   */
  observe(example: UpstreamExample, deliberateStatus?: number): Promise<Observation>;
}

export function createObserver(world: World, renamer: Renamer, checker: SchemaChecker): Observer {
  // Renamed once per document and per documented shape: the checker compiles each schema object once.
  const renamedDocs = new Map<Json, Json>();
  const shapes = new Map<string, unknown>();
  const renamedDoc = (doc: Json) => {
    if (!renamedDocs.has(doc)) renamedDocs.set(doc, renamer.schema(doc) as Json);
    return renamedDocs.get(doc) as Json;
  };
  const shapeFor = (example: UpstreamExample, status: number) => {
    const key = `${example.operation.file} ${example.operation.method} ${example.operation.path} ${status} ${example.name}`;
    const absent = nullInAnswer(responseExample(example, status));
    if (!shapes.has(key)) shapes.set(key, renamer.schema(requireTopLevel(documentedShape(responseSchema(example.operation, status), example.name), absent)));
    return shapes.get(key);
  };

  return {
    async observe(example, deliberateStatus) {
      const { operation } = example;
      const route = ourRoute(operation.method, operation.path);
      if (!route) throw new Error(`${example.id}: no route of our contract matches ${operation.method} ${operation.path}`);
      const expected = documentedStatus(example);
      const requestErrors = checker.errors(operation.doc, requestSchema(operation), example.value);
      const renamedExample = renamer.value(example.value) as Json;

      const send = async (body: unknown, params: Record<string, string>, headers: Record<string, string>) => {
        const response = await fetch(`${world.url}${route.renderPath(params)}`, {
          method: operation.method,
          headers: {
            ...headers,
            'content-type': 'application/json',
            ...(route.listed.meta.idempotent ? { [IDEMPOTENCY_HEADER]: randomUUID() } : {}),
          },
          body: JSON.stringify(body),
        });
        const text = await response.text();
        return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
      };

      // Each attempt on a fresh merchant with fresh prerequisites: the first must not leave state
      // (a used session, a refunded payment) that decides the second.
      const attempt = async (variant: 'published' | 'stale-data fixed') => {
        const merchant = await world.merchant();
        const prepared = await prepare(route.listed.key, example.name, renamedExample, merchant);
        const now = new Date((await merchant.client.sandbox.getClock()).now);
        const body = variant === 'published' ? asPublished(renamedExample, prepared.ids) : staleDataFixed(renamedExample, prepared.ids, now);
        return send(body, prepared.params, merchant.headers);
      };

      const accepted = (status: number) => status === expected || status === deliberateStatus;
      let outcome: Outcome = 'published';
      let answer = await attempt('published');
      if (!accepted(answer.status)) {
        outcome = 'stale-data fixed';
        answer = await attempt('stale-data fixed');
        if (!accepted(answer.status)) outcome = 'refused';
      }
      const doc = renamedDoc(operation.doc);
      const schema = shapeFor(example, expected);
      const responseErrors = outcome === 'refused' ? [] : checker.errors(doc, schema, answer.body);
      return {
        example,
        expected,
        outcome,
        status: answer.status,
        answer: describeAnswer(answer.status, answer.body),
        requestErrors,
        responseErrors,
        body: answer.body,
      };
    },
  };
}
