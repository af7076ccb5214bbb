import { formatIssuePath, unwrapSchema } from '@switchyard/contract';
import { MINIMAL_PDF_BASE64 } from '@switchyard/contract/fixtures';
import { z, type ZodTypeAny } from 'zod';

type Path = (string | number)[];

/** Ids the run already holds, by field name, for the optional fields that name a resource (`customer_id`). */
export type KnownIds = Partial<Record<string, string>>;

export interface MaximalBody {
  body: Record<string, unknown>;
  /** The optional fields added to the valid body (`customer_payer.email`). */
  added: string[];
  /**
   * Optional fields left out, and why: a cross-field rule of the contract refuses them together
   * with the rest (the issue it reports), or no valid value could be derived for them.
   */
  excluded: { field: string; why: string }[];
}

const lengthOf = (s: z.ZodString, kind: 'min' | 'max') => s._def.checks.find((c) => c.kind === kind || c.kind === 'length') as { value: number } | undefined;

/** Plausible strings, the first one a field's schema (its formats, patterns and refinements included) accepts is used. */
function stringCandidates(core: z.ZodString): string[] {
  const min = lengthOf(core, 'min')?.value ?? 1;
  const max = lengthOf(core, 'max')?.value ?? 255;
  const text = 'conformance-maximal'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(max, 19)));
  return [
    text,
    'conformance@example.com',
    'https://example.com/conformance',
    crypto.randomUUID(),
    '2026-01-02T03:04:05.000000Z',
    '2026-01-02T03:04:05.000Z',
    '2026-01-02T03:04:05Z',
    '2000-01-02',
    'AR',
    'ARS',
    '+54',
    '1155550000',
    '12345678',
    MINIMAL_PDF_BASE64,
    'x'.repeat(min),
  ];
}

/** A valid value for `schema` (undefined when none of the candidates is), found by trying candidates against the schema itself. */
function sample(schema: ZodTypeAny, path: Path, ids: KnownIds, depth = 0): unknown {
  if (depth > 12) return undefined;
  const { core } = unwrapSchema(schema);
  const accepted = (candidates: unknown[]) => candidates.find((v) => v !== undefined && schema.safeParse(v).success);
  const name = path[path.length - 1];
  const parent = path.filter((p) => typeof p === 'string').slice(-2, -1)[0];
  const known = typeof name === 'string' ? (ids[`${parent}.${name}`] ?? ids[name]) : undefined;
  if (known !== undefined && schema.safeParse(known).success) return known;
  if (core instanceof z.ZodString) return accepted(stringCandidates(core));
  if (core instanceof z.ZodNumber) {
    const checks = core._def.checks as { kind: string; value?: number }[];
    const min = checks.find((c) => c.kind === 'min')?.value;
    const max = checks.find((c) => c.kind === 'max')?.value;
    return accepted([1, 10, min, min === undefined ? undefined : min + 1, max, 0.5, 0]);
  }
  if (core instanceof z.ZodBoolean) return true;
  if (core instanceof z.ZodEnum) return accepted([...(core.options as string[])]);
  if (core instanceof z.ZodNativeEnum) return accepted(Object.values(core.enum as object));
  if (core instanceof z.ZodLiteral) return core.value;
  if (core instanceof z.ZodArray) {
    // A list of enum values (webhook triggers) holds every value: the maximal choice, and the one other fields' rules may need.
    const element = unwrapSchema(core.element as ZodTypeAny).core;
    if (element instanceof z.ZodEnum) {
      const all = accepted([[...(element.options as string[])]]);
      if (all !== undefined) return all;
    }
    const item = sample(core.element as ZodTypeAny, [...path, 0], ids, depth + 1);
    const min = (core._def.minLength as { value: number } | null)?.value ?? (core._def.exactLength as { value: number } | null)?.value ?? 1;
    return item === undefined ? undefined : accepted([Array.from({ length: Math.max(min, 1) }, () => structuredClone(item))]);
  }
  if (core instanceof z.ZodObject) {
    const out: Record<string, unknown> = {};
    for (const [field, s] of Object.entries(core.shape as Record<string, ZodTypeAny>)) {
      const value = sample(s, [...path, field], ids, depth + 1);
      if (value !== undefined) out[field] = value;
    }
    return accepted([out]) ?? out;
  }
  if (core instanceof z.ZodRecord) return accepted([{ conformance: 'maximal' }]);
  if (core instanceof z.ZodUnion || core instanceof z.ZodDiscriminatedUnion) {
    const options = (core as { options: ZodTypeAny[] | Map<unknown, ZodTypeAny> }).options;
    for (const option of options instanceof Map ? [...options.values()] : options) {
      const value = sample(option, path, ids, depth + 1);
      if (value !== undefined && schema.safeParse(value).success) return value;
    }
  }
  return undefined;
}

const getAt = (root: unknown, path: Path): unknown => path.reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string | number, unknown>)[part] : undefined), root);

function removeAt(root: Record<string, unknown>, path: Path): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown> | undefined;
  if (parent) delete parent[path[path.length - 1] as string | number];
}

/** The option of a union that accepts `value`. */
function optionFor(core: ZodTypeAny, value: unknown): ZodTypeAny | undefined {
  const options = (core as { options?: ZodTypeAny[] | Map<unknown, ZodTypeAny> }).options;
  const list = options instanceof Map ? [...options.values()] : (options ?? []);
  return list.find((o) => o.safeParse(value).success);
}

/** Fills every optional field of `body` (at `path`, valid for `schema`) that is absent, at every depth, recording what it added. */
function fill(schema: ZodTypeAny, body: Record<string, unknown>, path: Path, ids: KnownIds, added: Path[], excluded: MaximalBody['excluded'], depth = 0): void {
  if (depth > 12) return;
  const { core } = unwrapSchema(schema);
  const current = getAt(body, path);
  if (core instanceof z.ZodObject && current && typeof current === 'object' && !Array.isArray(current)) {
    const node = current as Record<string, unknown>;
    for (const [field, s] of Object.entries(core.shape as Record<string, ZodTypeAny>)) {
      const at = [...path, field];
      if (node[field] === undefined) {
        const value = sample(s, at, ids, depth + 1);
        if (value === undefined) excluded.push({ field: formatIssuePath(at), why: 'no valid value could be derived from its schema' });
        else {
          node[field] = value;
          added.push(at);
        }
      } else fill(s, body, at, ids, added, excluded, depth + 1);
    }
  } else if (core instanceof z.ZodArray && Array.isArray(current)) {
    current.forEach((_, i) => fill(core.element as ZodTypeAny, body, [...path, i], ids, added, excluded, depth + 1));
  } else if ((core instanceof z.ZodUnion || core instanceof z.ZodDiscriminatedUnion) && current !== undefined) {
    const option = optionFor(core, current);
    if (option) fill(option, body, path, ids, added, excluded, depth + 1);
  }
}

function setAt(root: Record<string, unknown>, path: Path, value: unknown): void {
  (getAt(root, path.slice(0, -1)) as Record<string | number, unknown>)[path[path.length - 1] as string | number] = value;
}

const isUnder = (field: Path, issue: Path) => issue.every((part, i) => field[i] === part);

/**
 * The valid body with every optional field the contract defines filled with a valid value, at
 * every depth (a sample of the field's own schema, or an id the run holds for a field that names a
 * resource). Cross-field rules (a field accepted only with some value of another, fields that
 * exclude each other) are not read from the schema but from what it reports: while the body is
 * refused, the added field the first issue points at (at, under or, failing both, any added field
 * whose removal clears that issue) is left out, with the rule's message as the reason.
 */
export function maximalBody(schema: ZodTypeAny, valid: Record<string, unknown>, ids: KnownIds = {}, leaveOut: MaximalBody['excluded'] = []): MaximalBody {
  const body = structuredClone(valid);
  let added: Path[] = [];
  const excluded: MaximalBody['excluded'] = [];
  fill(schema, body, [], ids, added, excluded);
  for (const out of leaveOut) {
    const path = added.find((f) => formatIssuePath(f) === out.field);
    if (!path) continue;
    removeAt(body, path);
    added = added.filter((f) => !isUnder(f, path));
    excluded.push(out);
  }
  for (let round = 0; round < 50; round += 1) {
    const parsed = schema.safeParse(body);
    if (parsed.success) break;
    const issue = parsed.error.issues[0] as z.ZodIssue;
    const issueKey = `${formatIssuePath(issue.path)}: ${issue.message}`;
    const stillThere = (b: unknown) => (schema.safeParse(b).error?.issues ?? []).some((i) => `${formatIssuePath(i.path)}: ${i.message}` === issueKey);
    const atIssue = added.filter((f) => isUnder(f, issue.path) || isUnder(issue.path, f));
    // Latest first: a field added inside another added one goes before its parent.
    const candidates = [...(atIssue.length ? atIssue : added)].reverse();
    // One field at a time first; a rule that two added fields break together (fields that
    // exclude each other) needs several, latest first, until the issue is gone.
    const single = candidates.find((f) => {
      const trial = structuredClone(body);
      removeAt(trial, f);
      return !stillThere(trial);
    });
    const removed: { path: Path; value: unknown }[] = [];
    for (const f of single ? [single] : candidates) {
      removed.push({ path: f, value: getAt(body, f) });
      removeAt(body, f);
      if (!stillThere(body)) break;
    }
    if (removed.length === 0) break;
    // What the cumulative removal took out needlessly goes back, one field at a time, while the issue stays gone.
    const kept = removed.filter((r) => {
      if (removed.length === 1 || getAt(body, r.path.slice(0, -1)) === undefined) return false;
      setAt(body, r.path, r.value);
      if (!stillThere(body)) return true;
      removeAt(body, r.path);
      return false;
    });
    const gone = removed.filter((r) => !kept.includes(r)).map((r) => r.path);
    added = added.filter((f) => !gone.some((r) => isUnder(f, r)));
    for (const f of gone) excluded.push({ field: formatIssuePath(f), why: `${formatIssuePath(issue.path) || 'body'} ${issue.message}` });
  }
  return { body, added: added.map((f) => formatIssuePath(f)), excluded };
}
