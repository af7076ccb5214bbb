import { boundMessages, formatIssuePath, MAX_ERROR_MESSAGES, type Snapshot, type SnapshotRecord } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { yieldToEventLoop } from '../runtime/yield.js';
import { PUBLIC_HANDLE_KINDS, type RecordKind } from '../store/types.js';
import type { TenantLimits } from '../tenant-limits.js';
import { problemOf, STORED_RULES, type Problem, type StoredRule } from './stored-records.js';

/**
 * The longest the checks run before letting other requests in: checking a payment against its
 * rules takes a few hundred microseconds, and a snapshot holds up to 20,000 records.
 */
const SLICE_MS = 10;

/** Longest record id a message quotes: ids are the snapshot's, any length up to the contract's bound. */
const MAX_QUOTED_ID = 40;

/** `records[3] payment "0b1c…"`: where a problem is, as the caller finds it in the document. */
function recordLabel(i: number, record: SnapshotRecord): string {
  const id = record.id.length > MAX_QUOTED_ID ? `${record.id.slice(0, MAX_QUOTED_ID - 1)}…` : record.id;
  return `records[${i}] ${record.kind} ${JSON.stringify(id)}`;
}

/** `data.amount_units` or `data` itself. */
const dataField = (path: readonly (string | number)[]) => (path.length === 0 ? 'data' : `data${typeof path[0] === 'number' ? '' : '.'}${formatIssuePath(path)}`);

/** The problems found so far: every one counted, the first MAX_ERROR_MESSAGES + 1 written out. */
class Problems {
  readonly messages: string[] = [];
  total = 0;

  add(message: () => string): void {
    this.total += 1;
    if (this.messages.length <= MAX_ERROR_MESSAGES) this.messages.push(message());
  }

  refuse(): void {
    if (this.total > 0) throw new DomainError('INVALID_PARAMETERS', boundMessages(this.messages, this.total));
  }
}

/** Every id and unique key of the snapshot, by kind: what references are looked up in. */
class Held {
  private readonly ids = new Map<string, number>();
  private readonly keys = new Map<string, number>();

  /** The index of the record that first held the id (or key), when this one is not the first. */
  addId(kind: string, id: string, i: number): number | undefined {
    return Held.once(this.ids, `${kind}\u001f${id}`, i);
  }

  addKey(kind: string, key: string, i: number): number | undefined {
    return Held.once(this.keys, `${kind}\u001f${key}`, i);
  }

  hasId(kind: RecordKind, id: string): boolean {
    return this.ids.has(`${kind}\u001f${id}`);
  }

  hasKey(kind: RecordKind, key: string): boolean {
    return this.keys.has(`${kind}\u001f${key}`);
  }

  private static once(map: Map<string, number>, key: string, i: number): number | undefined {
    const first = map.get(key);
    if (first !== undefined) return first;
    map.set(key, i);
    return undefined;
  }
}

/**
 * One record against the rules of its kind (app/stored-records.ts), in their order; a step whose
 * input broke the previous one's rules is not run (a view reads what `stored` checked).
 */
function checkRecord(rule: StoredRule<never>, record: SnapshotRecord, held: Held, report: (problem: Problem, answered?: boolean) => void): void {
  const stored = rule.stored.safeParse(record.data);
  if (!stored.success) {
    for (const issue of stored.error.issues) report(problemOf(issue));
    return;
  }
  const data = record.data as never;
  const id = rule.id?.(data);
  if (id !== undefined && id !== record.id) report({ path: [], message: `names the id ${JSON.stringify(id)}, not the record's` });
  const key = rule.uniqueKey(data, record.id);
  // A public handle another merchant held when it was imported is kept without it (snapshots.ts).
  const keyKept = record.unique_key === key || (record.unique_key === null && PUBLIC_HANDLE_KINDS.has(record.kind as RecordKind));
  if (!keyKept) report({ path: [], message: `is kept under the unique key ${JSON.stringify(record.unique_key)}, not ${JSON.stringify(key)}` });
  if (rule.answer) {
    let answer: ReturnType<NonNullable<StoredRule<never>['answer']>> | undefined;
    try {
      answer = rule.answer(data);
    } catch (error) {
      report({ path: [], message: `cannot be answered by the API (${error instanceof Error ? error.message : String(error)})` });
    }
    const checked = answer?.[0].safeParse(answer[1]);
    if (checked && !checked.success) for (const issue of checked.error.issues) report(problemOf(issue), true);
  }
  for (const problem of rule.invariants?.(data) ?? []) report(problem);
  for (const ref of rule.references?.(data) ?? []) {
    const found = ref.id !== undefined ? held.hasId(ref.kind, ref.id) : held.hasKey(ref.kind, ref.uniqueKey ?? '');
    if (!found) report({ path: ref.path, message: `names a ${ref.kind} the snapshot does not hold (${JSON.stringify(ref.id ?? ref.uniqueKey)})` });
  }
}

/**
 * Checks every record of a snapshot as the API would have written it: its kind's rules
 * (app/stored-records.ts: its fields, its answer under the contract, what holds between its
 * fields, the records it names, which the snapshot must hold), its id and unique key (each once
 * per kind), its account (one of the snapshot's); the records per kind and the webhooks per
 * account stay within the merchant's limits, and webhook URLs are destinations the sandbox
 * allows. Every problem is counted and the first ones are named, each with its record and field:
 * one 400 INVALID_PARAMETERS for all of them. Linear in the records (references are looked up in
 * an index built first), and run in slices of SLICE_MS that yield to other requests between them.
 */
export async function checkSnapshotRecords(snapshot: Snapshot, limits: TenantLimits, urlRefusal?: (url: string) => string | undefined): Promise<void> {
  const problems = new Problems();
  const held = new Held();
  const counts = new Map<string, number>();
  snapshot.records.forEach((record, i) => {
    const first = held.addId(record.kind, record.id, i);
    if (first !== undefined) problems.add(() => `${recordLabel(i, record)}: id is also records[${first}]'s`);
    const firstKey = record.unique_key === null ? undefined : held.addKey(record.kind, record.unique_key, i);
    if (firstKey !== undefined) problems.add(() => `${recordLabel(i, record)}: unique_key is also records[${firstKey}]'s`);
    counts.set(record.kind, (counts.get(record.kind) ?? 0) + 1);
  });
  for (const [kind, count] of counts) {
    const max = STORED_RULES[kind as RecordKind].max;
    if (max !== undefined && count > max) problems.add(() => `records: ${count} ${kind} records, more than the ${max} a merchant holds`);
  }

  const accounts = new Set(snapshot.merchant.account_ids);
  const webhooksPerAccount = new Map<string, number>();
  let sliceStart = performance.now();
  for (const [i, record] of snapshot.records.entries()) {
    if (performance.now() - sliceStart >= SLICE_MS) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
    const data = record.data;
    if (typeof data.account_id === 'string' && !accounts.has(data.account_id)) {
      problems.add(() => `${recordLabel(i, record)}: data.account_id ${JSON.stringify(data.account_id)} is not one of merchant.account_ids`);
    }
    checkRecord(STORED_RULES[record.kind as RecordKind], record, held, (problem, answered) =>
      problems.add(() => `${recordLabel(i, record)}: ${answered ? `its answer's ${formatIssuePath(problem.path) || 'body'}` : dataField(problem.path)} ${problem.message}`),
    );
    if (record.kind === 'webhook') {
      const refusal = urlRefusal?.(String(data.url));
      if (refusal) problems.add(() => `${recordLabel(i, record)}: data.url ${refusal}`);
      const account = String(data.account_id);
      const n = (webhooksPerAccount.get(account) ?? 0) + 1;
      if (n === limits.webhooksPerAccount + 1) problems.add(() => `${recordLabel(i, record)}: account ${account} would have more than ${limits.webhooksPerAccount} webhooks, the most one account may have`);
      webhooksPerAccount.set(account, n);
    }
  }
  problems.refuse();
}
