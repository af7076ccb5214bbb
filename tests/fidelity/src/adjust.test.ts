import { describe, expect, it } from 'vitest';
import { MINIMAL_PDF_BASE64 } from '@switchyard/contract/fixtures';
import { asPublished, staleDataFixed } from './adjust.js';

const ids = { account_id: 'acc-real', customer_id: 'cus-real', checkout_session: 'ses-real', vaulted_token: 'tok-real', recipient_id: 'rec-real' };

describe('asPublished', () => {
  it("swaps upstream's own ids and placeholders for real ones, and keeps an empty id but the account's", () => {
    const example = {
      account_id: '493e9374-510a-4201-9e09-de669d75f256',
      customer_payer: { id: '{{customer_id}}', email: 'a@example.com' },
      checkout: { session: 'a1d3b664-e32a-4508-9da1-9ede3e62a60c' },
      payment_method: { vaulted_token: '' },
      split_marketplace: [{ recipient_id: 'c8440141-127b-4dfe-b585-b8622c1db4c9' }, { recipient_id: '' }],
    };
    expect(asPublished(example, ids)).toEqual({
      account_id: 'acc-real',
      customer_payer: { id: 'cus-real', email: 'a@example.com' },
      checkout: { session: 'ses-real' },
      payment_method: { vaulted_token: '' },
      split_marketplace: [{ recipient_id: 'rec-real' }, { recipient_id: '' }],
    });
    expect(asPublished({ account_id: '' }, ids)).toEqual({ account_id: 'acc-real' });
  });

  it('fills a placeholder by its name, and leaves one that names nothing known', () => {
    const example = { account_id: '<Your account_id>', note: '{{account-code}}', other: '<unknown_thing>' };
    expect(asPublished(example, ids)).toEqual({ account_id: 'acc-real', note: 'acc-real', other: '<unknown_thing>' });
  });

  it('leaves an id that names no resource of the example alone', () => {
    expect(asPublished({ provider: { id: 'PROVIDER' }, id: 'x' }, ids)).toEqual({ provider: { id: 'PROVIDER' }, id: 'x' });
  });

  it('leaves stale data as published', () => {
    const example = { files: [{ content: 'base64_encoded_content' }], availability: { start_at: '2023-01-15T14:00:12Z' } };
    expect(asPublished(example, ids)).toEqual(example);
  });
});

describe('staleDataFixed', () => {
  const now = new Date('2026-11-23T12:00:00Z');

  it('puts a real file where a content stands in for one, and keeps real base64', () => {
    const example = { files: [{ content: 'base64_encoded_content' }, { content: '0MTGCjMg ...' }, { content: 'VGV4dA==' }] };
    expect(staleDataFixed(example, ids, now)).toEqual({ files: [{ content: MINIMAL_PDF_BASE64 }, { content: MINIMAL_PDF_BASE64 }, { content: 'VGV4dA==' }] });
  });

  it('moves a past window by whole days to start after now, keeping its length and time of day', () => {
    const moved = staleDataFixed({ availability: { start_at: '2023-01-15T14:00:12Z', finish_at: '2023-12-29T14:00:12Z' } }, ids, now) as {
      availability: { start_at: string; finish_at: string };
    };
    const start = Date.parse(moved.availability.start_at);
    expect(start).toBeGreaterThan(now.getTime());
    expect(start - now.getTime()).toBeLessThanOrEqual(2 * 24 * 3600 * 1000);
    expect(moved.availability.start_at.slice(10)).toBe('T14:00:12.000Z');
    expect(Date.parse(moved.availability.finish_at) - start).toBe(Date.parse('2023-12-29T14:00:12Z') - Date.parse('2023-01-15T14:00:12Z'));
  });

  it('leaves a future window and every other date as published', () => {
    const example = { availability: { start_at: '2027-05-23T20:17:30Z' }, date_of_birth: '1990-02-28', accepted_at: '2020-01-01T00:00:00Z' };
    expect(staleDataFixed(example, ids, now)).toEqual(example);
  });
});
