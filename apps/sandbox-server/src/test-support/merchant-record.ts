import type { MerchantRecord } from '../store/types.js';

/** A merchant record as the stores keep it, for tests of the stores themselves; `overrides` replace its fields. */
export const merchantRecord = (id: string, overrides: Partial<MerchantRecord> = {}): MerchantRecord => ({
  id,
  name: id,
  public_api_key: `pk_${id}`,
  secret_key_digest: `digest_${id}`,
  account_ids: [],
  fingerprint_key: 'k',
  clock_offset_seconds: 0,
  created_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
