import { describe, expect, it } from 'vitest';
import { clientsFor, newMerchant } from '../test-support/harness.js';
import { sandboxOn, storesUnderTest } from '../test-support/stores.js';
import { DEFAULT_LIMITS } from '../tenant-limits.js';

const CAP = 3;

describe.each(storesUnderTest('webhook-limits.test.ts'))('webhooks per account on the $name store', (store) => {
  const sb = sandboxOn(store, { limits: { ...DEFAULT_LIMITS, webhooksPerAccount: CAP } });

  it('refuses the webhook past the cap with 400 WEBHOOK_INVALID_REQUEST, even when the creates race, and lets a delete free a place', async () => {
    const merchant = await newMerchant(sb.url);
    const clients = clientsFor(sb.url, merchant);
    const accountId = merchant.account_ids[0] as string;
    const create = (i: number) => clients.webhooks.create({ body: { account_id: accountId, name: `hook-${i}`, url: `http://127.0.0.1:9/hooks/${i}`, payment_triggers: ['PURCHASE'] } });
    const results = await Promise.all(Array.from({ length: CAP * 2 }, (_, i) => create(i)));
    const created = results.filter((r) => r.status === 201);
    expect(created).toHaveLength(CAP);
    for (const refused of results.filter((r) => r.status !== 201)) {
      expect(refused).toMatchObject({ status: 400, body: { code: 'WEBHOOK_INVALID_REQUEST', messages: [expect.stringContaining(`(${CAP})`)] } });
    }
    const listed = await clients.webhooks.list({ query: { account_id: accountId } });
    expect(listed.status === 200 && listed.body).toHaveLength(CAP);

    // An update of one already there is no new webhook.
    const first = created[0];
    if (first?.status !== 201) throw new Error('created');
    expect(await clients.webhooks.update({ params: { webhook_id: first.body.id }, body: { account_id: accountId, name: 'renamed' } })).toMatchObject({ status: 200 });
    expect(await clients.webhooks.delete({ params: { webhook_id: first.body.id }, query: { account_id: accountId } })).toMatchObject({ status: 200 });
    expect(await create(100)).toMatchObject({ status: 201 });
  });
});
