import { describe, it } from 'vitest';
import { fixtures } from '../fixtures/index.js';
import { expectAccepted, expectRejectedAt, set } from '../test-support/rules.js';
import { CreateWebhookBody, UpdateWebhookBody, WebhookListQuery } from './schemas.js';

describe('webhook management (supporting)', () => {
  it('accepts a webhook', () => expectAccepted(CreateWebhookBody, fixtures.createWebhook()));
  it('rejects a non-http url', () => expectRejectedAt(CreateWebhookBody, set(fixtures.createWebhook(), ['url'], 'ftp://x.example.com'), 'url'));
  it('rejects an unknown payment trigger', () =>
    expectRejectedAt(CreateWebhookBody, set(fixtures.createWebhook(), ['payment_triggers'], ['SETTLE']), 'payment_triggers[0]'));
  it('rejects a missing name', () => expectRejectedAt(CreateWebhookBody, set(fixtures.createWebhook(), ['name'], undefined), 'name'));
  it('accepts a state change', () => expectAccepted(UpdateWebhookBody, fixtures.updateWebhook()));
  it('rejects an unknown state', () => expectRejectedAt(UpdateWebhookBody, set(fixtures.updateWebhook(), ['state'], 'PAUSED'), 'state'));
  it('lists by account', () => expectRejectedAt(WebhookListQuery, {}, 'account_id'));
});
