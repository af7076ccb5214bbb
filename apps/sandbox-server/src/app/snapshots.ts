import { MAX_SNAPSHOT_RECORDS, SNAPSHOT_FORMAT, type Snapshot, type SnapshotRecord } from '@switchyard/contract';
import { DomainError } from '../domain/errors.js';
import { MIGRATIONS } from '../store/migrations/index.js';
import { PUBLIC_HANDLE_KINDS, UniqueViolation, type RecordKind, type Tx } from '../store/types.js';
import { invalidCredentials, isoNow, limitsOf, type RequestContext } from './context.js';
import { markedAsUsingFaultRules } from './faults.js';
import { checkSnapshotRecords } from './snapshot-checks.js';

/**
 * The version of the records' shape: the number of the latest migration that may change record
 * data (an index changes none). Record data only ever changes shape through a migration, so a
 * snapshot taken at a version this sandbox has reached holds records it can read; one from a
 * later version may not.
 */
export const SNAPSHOT_VERSION = Math.max(...MIGRATIONS.filter((m) => !m.recordsUnchanged).map((m) => m.version));

/** Every kind of record a merchant owns: typed as a record of all of them, so a new kind cannot be left out of snapshots. */
const KINDS: Record<RecordKind, true> = {
  customer: true,
  customer_session: true,
  checkout_session: true,
  payment_link: true,
  payment: true,
  payer_page: true,
  payment_method: true,
  subscription: true,
  recipient: true,
  transfer: true,
  balance: true,
  banking_entity: true,
  banking_onboarding: true,
  banking_account: true,
  webhook: true,
  webhook_delivery: true,
  event: true,
  idempotency: true,
  fault_rule: true,
  webhook_chaos: true,
};
const RECORD_KINDS = Object.keys(KINDS) as RecordKind[];
const isRecordKind = (kind: string): kind is RecordKind => Object.hasOwn(KINDS, kind);

/**
 * The unique key an imported record is stored under. A public handle another merchant already
 * holds stays that merchant's: the copy keeps the record without it, so no import can take over
 * the page of another tenant (its own copy's pages do not open; docs/sandbox-testing.md, "Snapshots").
 */
async function importedUniqueKey(ctx: RequestContext, record: SnapshotRecord & { kind: RecordKind }): Promise<string | undefined> {
  if (record.unique_key === null) return undefined;
  if (!PUBLIC_HANDLE_KINDS.has(record.kind)) return record.unique_key;
  const holder = await ctx.store.locate(record.kind, record.unique_key);
  return holder && holder.merchantId !== ctx.merchant.id ? undefined : record.unique_key;
}

const tooLarge = () => new DomainError('INVALID_STATE', [`the merchant holds more than ${MAX_SNAPSHOT_RECORDS} records, the most a snapshot holds`]);

/** Every record of the merchant, kind by kind, each in insertion order; refused past MAX_SNAPSHOT_RECORDS (read at most one past it). */
async function allRecords(tx: Tx): Promise<SnapshotRecord[]> {
  const records: SnapshotRecord[] = [];
  for (const kind of RECORD_KINDS) {
    const entries = await tx.listEntries<Record<string, unknown>>(kind, MAX_SNAPSHOT_RECORDS - records.length + 1);
    for (const { id, unique_key, data } of entries) records.push({ kind, id, unique_key, data });
    if (records.length > MAX_SNAPSHOT_RECORDS) throw tooLarge();
  }
  return records;
}

/**
 * The merchant's whole state, read in one transaction that runs alone (no other transaction of
 * the merchant commits between two kinds' reads, so the records agree with each other): every
 * record with its id and unique key, the account ids the records belong to and the clock's
 * offset. Never the merchant's keys, nor its card fingerprint key (docs/sandbox-testing.md, "Snapshots").
 */
export async function exportSnapshot(ctx: RequestContext): Promise<Snapshot> {
  const records = await ctx.store.withTransactionAlone(ctx.merchant.id, allRecords);
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    exported_at: isoNow(ctx),
    merchant: { account_ids: [...ctx.merchant.account_ids], clock_offset_seconds: ctx.merchant.clock_offset_seconds },
    records,
  };
}

/**
 * The snapshot's records, once checked: refuses a later schema, a kind of record this sandbox does
 * not keep, and a record the API would not have written (`checkSnapshotRecords`).
 */
async function importableRecords(snapshot: Snapshot, ctx: RequestContext): Promise<(SnapshotRecord & { kind: RecordKind })[]> {
  if (snapshot.version > SNAPSHOT_VERSION) {
    throw new DomainError('INVALID_PARAMETERS', [
      `snapshot version ${snapshot.version} is newer than this sandbox's schema version ${SNAPSHOT_VERSION}: import it into a sandbox at version ${snapshot.version} or later`,
    ]);
  }
  const unknown = snapshot.records.findIndex((r) => !isRecordKind(r.kind));
  if (unknown >= 0) throw new DomainError('INVALID_PARAMETERS', [`records[${unknown}].kind "${snapshot.records[unknown]?.kind}" is not a kind of record this sandbox keeps`]);
  await checkSnapshotRecords(snapshot, limitsOf(ctx), ctx.webhookUrlRefusal);
  return snapshot.records as (SnapshotRecord & { kind: RecordKind })[];
}

/** Tries of an import whose public handles other imports kept taking first (each try finds more of them held). */
const IMPORT_ATTEMPTS = 3;

/**
 * Every record in one transaction that runs alone, after checking the merchant holds none; the
 * public handles are looked up inside it, so the check is as recent as it can be, and the store
 * refuses one taken meanwhile at the commit.
 */
async function writeRecords(ctx: RequestContext, records: (SnapshotRecord & { kind: RecordKind })[]): Promise<void> {
  await ctx.store.withTransactionAlone(ctx.merchant.id, async (tx) => {
    for (const kind of RECORD_KINDS) {
      if ((await tx.listEntries(kind, 1)).length > 0) throw new DomainError('INVALID_STATE', ['the merchant already holds data: import into a new merchant, or POST /sandbox/reset first']);
    }
    // Ids and unique keys are distinct within the snapshot (checkSnapshotRecords), and the merchant
    // holds nothing: only another merchant's public handle can clash.
    for (const r of records) await tx.put(r.kind, r.id, r.data, await importedUniqueKey(ctx, r));
  });
}

/**
 * Imports a snapshot into the calling merchant, which must hold no records: all of them in one
 * transaction that runs alone (ids and unique keys kept; due work re-indexed by the store), so of
 * two imports at once the second finds the first's records and is refused; then the merchant
 * takes the snapshot's account ids and clock offset. Its keys stay its own.
 */
export async function importSnapshot(ctx: RequestContext, snapshot: Snapshot) {
  const records = await importableRecords(snapshot, ctx);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await writeRecords(ctx, records);
      break;
    } catch (error) {
      // Another merchant's commit took a public handle between this import's check and its
      // commit (the stores refuse it then: types.ts PUBLIC_HANDLE_KINDS): the next attempt's check
      // finds that merchant holding it, and keeps the record without it.
      if (!(error instanceof UniqueViolation && PUBLIC_HANDLE_KINDS.has(error.kind))) throw error;
      if (attempt >= IMPORT_ATTEMPTS) throw new DomainError('INVALID_STATE', [`${error.kind} ${error.uniqueKey} was taken by another merchant while this import ran, ${IMPORT_ATTEMPTS} times: import again`]);
    }
  }
  const { account_ids, clock_offset_seconds } = snapshot.merchant;
  // Imported fault rules fire only once the merchant is marked as having rules (the faults middleware skips the lookup otherwise).
  const hasFaultRules = records.some((r) => r.kind === 'fault_rule');
  const merchant = await ctx.store.updateMerchant(ctx.merchant.id, (m) => ({ ...(hasFaultRules ? markedAsUsingFaultRules(m) : m), account_ids: [...account_ids], clock_offset_seconds }));
  if (!merchant) throw invalidCredentials();
  // Deliveries still pending in the snapshot are this merchant's to send now.
  ctx.deliveriesQueued?.();
  return { imported: snapshot.records.length, account_ids: merchant.account_ids, clock_offset_seconds: merchant.clock_offset_seconds };
}
