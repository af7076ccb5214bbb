import { expect } from 'vitest';
import type { ZodTypeAny } from 'zod';
import { formatIssuePath } from '../validation.js';

export interface Rule<T> {
  /** What the rule checks, for the test name. */
  name: string;
  /** Breaks exactly one rule on a fresh valid body. */
  mutate: (body: T) => unknown;
  /** The field path the rejection must name, as `formatIssuePath` writes it. */
  path: string;
}

/** Asserts the schema accepts `body`. */
export function expectAccepted(schema: ZodTypeAny, body: unknown): void {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Error(`expected the body to be accepted, got: ${JSON.stringify(result.error.issues, null, 2)}`);
  }
}

/** Asserts the schema rejects `body` with an issue on exactly the field `path`. */
export function expectRejectedAt(schema: ZodTypeAny, body: unknown, path: string): void {
  const result = schema.safeParse(body);
  expect(result.success, `expected a rejection at ${path}`).toBe(false);
  if (result.success) return;
  const paths = result.error.issues.map((issue) => formatIssuePath(issue.path));
  expect(paths).toContain(path);
}

/** Sets a (possibly nested) property on an object: `set(body, ['amount', 'value'], 1)`. */
export function set<T>(body: T, path: ReadonlyArray<string | number>, value: unknown): T {
  let target = body as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === undefined) delete target[last];
  else target[last] = value;
  return body;
}

export const repeat = (n: number) => 'x'.repeat(n);
