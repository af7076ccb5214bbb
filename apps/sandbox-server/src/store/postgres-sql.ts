import type { Due } from '../domain/due-work.js';
import type { RecordKind } from './types.js';

/**
 * A string as an SQL literal, exactly as node-postgres's `escapeLiteral` writes it: quotes
 * doubled, and when the text holds a backslash, backslashes doubled too and the literal marked
 * ` E'…'`. That one appends character by character, which took 3.3–3.9 µs for a 400-character
 * record against 0.6 µs for these whole-string replacements; every record a request writes goes
 * through here (postgres-sql.test.ts checks both give the same text).
 */
function escapeLiteral(value: string): string {
  const backslash = value.includes('\\');
  let body = value.includes("'") ? value.replaceAll("'", "''") : value;
  if (backslash) body = body.replaceAll('\\', '\\\\');
  return backslash ? ` E'${body}'` : `'${body}'`;
}

/**
 * SQL text with its values inlined as escaped literals. A transaction's statements go to
 * PostgreSQL as one simple query per round trip (`BEGIN`, the lock and the first read together;
 * the held-back writes and `COMMIT` together), which the extended protocol's bound parameters
 * cannot do: one message there carries one statement. `escapeLiteral` quotes every string, so no
 * value can end its literal; numbers are checked to be finite before they are written.
 */
export const text = (value: string): string => escapeLiteral(value);
export const textOrNull = (value: string | null | undefined): string => (value === null || value === undefined ? 'NULL' : escapeLiteral(value));
export function numberOrNull(value: number | null | undefined): string {
  if (value === null || value === undefined) return 'NULL';
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

/** Key of the merchant's lock, the one every older sandbox took for all its transactions (same hash, same seed). */
export const merchantLockKey = (merchantId: string): string => `hashtextextended(${text(merchantId)}, 7)`;

/**
 * Key of the lock of one record of one merchant (or of one name, `Tx.lock`). Transaction-level
 * advisory locks live in the lock table only: taking one writes nothing to the WAL and needs no
 * transaction id, so a read that locks stays a read. A hash collision only makes two unrelated
 * records wait for each other, never lets two holders of one record in.
 */
export const recordLockKey = (merchantId: string, kind: string, idExpression: string): string =>
  `hashtextextended(${text(`${merchantId}\u001f${kind}\u001f`)} || ${idExpression}, 21)`;

export const recordsWhere = (merchantId: string, kind: RecordKind): string => `merchant_id = ${text(merchantId)} AND kind = ${text(kind)}`;

/**
 * The records of a kind, for a read in insertion order (`ORDER BY seq`): the predicate of the
 * partial index `records_in_insertion_order` (migration 5), which every row meets and which only
 * these reads state, so no lookup by id is ever planned along it.
 */
export const inInsertionOrder = (merchantId: string, kind: RecordKind): string => `${recordsWhere(merchantId, kind)} AND seq > 0`;

/** The values of one records row, in the column order of `RECORD_COLUMNS`. */
export function recordValues(merchantId: string, kind: RecordKind, id: string, json: string, due: Due | null, uniqueKey?: string): string {
  return `(${text(merchantId)}, ${text(kind)}, ${text(id)}, ${textOrNull(uniqueKey)}, ${text(json)}, ${textOrNull(due?.lane)}, ${numberOrNull(due?.at)})`;
}

export const RECORD_COLUMNS = '(merchant_id, kind, id, unique_key, data, due_lane, due_at)';
export const UPSERT = 'ON CONFLICT (merchant_id, kind, id) DO UPDATE SET unique_key = EXCLUDED.unique_key, data = EXCLUDED.data, due_lane = EXCLUDED.due_lane, due_at = EXCLUDED.due_at';

/** What the merchant check's failure says (see `merchantUnchanged`). */
const MERCHANT_CHANGED = 'merchant-changed:';

/**
 * A statement that fails, and with it the rest of its message and the transaction, unless the
 * merchant's row is still the version (`xmin`, the transaction that last wrote it) the caller
 * read. It fails by casting a text to int: the text is built from the row, so the planner cannot
 * fold it into a failure of every run. Sent after the merchant's lock, which `updateMerchant`
 * takes alone, so the row cannot change before the transaction ends.
 */
export const merchantUnchanged = (merchantId: string, version: string): string =>
  `SELECT (CASE WHEN xmin::text = ${text(version)} THEN '0' ELSE ${text(MERCHANT_CHANGED)} || id END)::int FROM merchants WHERE id = ${text(merchantId)}`;

/** Whether `error` is the failure of `merchantUnchanged`: invalid_text_representation, naming its text (quoted as the server's language quotes). */
export function isMerchantChange(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e.code === '22P02' && typeof e.message === 'string' && e.message.includes(MERCHANT_CHANGED);
}
