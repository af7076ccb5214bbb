import type { Page } from 'playwright-core';
import { vi } from 'vitest';
import { createClient, type SwitchyardClient } from '@switchyard/client';
import type { Payment, SandboxMerchant, WebhookDelivery } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { listen } from '@switchyard/tooling/test-server';

/** A merchant_order_id that would run script if any page put it through an HTML parser. */
export const HOSTILE = '<img src=x onerror=alert(1)>';

/** A webhook receiver that answers 200 to everything. */
export async function startReceiver(): Promise<{ url: string; close(): Promise<void> }> {
  const { url, close } = await listen((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  return { url: `${url}/hooks`, close };
}

/** Asks until `check` answers a value: the dispatcher records an attempt after the receiver has answered. */
function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  // A hang detector's bound, not a speed goal: a loaded CI machine may take seconds to deliver, and
  // one 5-20 times slower than usual many more (as the sandbox's own tests allow: receiver.ts).
  return vi.waitFor(async () => {
    const value = await check();
    if (value === undefined) throw new Error('condition not met');
    return value;
  }, { timeout: 45_000, interval: 20 });
}

export interface InspectedMerchant {
  merchant: SandboxMerchant;
  client: SwitchyardClient;
  /** Paid with the approve card, with `HOSTILE` as its merchant_order_id. */
  payment: Payment;
  /** The payment's webhook delivery, delivered. */
  delivery: WebhookDelivery;
}

/**
 * A fresh merchant on the sandbox at `url` (its keys are what the page signs in with), its webhook
 * pointing at `receiverUrl`, and one approved payment whose delivery has been recorded.
 */
export async function merchantWithPayment(url: string, receiverUrl: string): Promise<InspectedMerchant> {
  const merchant = await createClient({ baseUrl: url, publicApiKey: 'none', privateSecretKey: 'none' }).sandbox.createMerchant({ body: { name: 'inspector' } });
  const client = createClient({ baseUrl: url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, validateResponses: true });
  const accountId = merchant.account_ids[0] as string;
  await client.webhooks.create({ body: { account_id: accountId, name: 'inspector', url: receiverUrl, hmac_client_secret: 'inspector-secret', payment_triggers: ['PURCHASE'] } });
  const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
  const payment = await client.payments.create({ body: { ...fixtures.createPayment(session.checkout_session, '4111111111111111'), account_id: accountId, merchant_order_id: HOSTILE } });
  const delivery = await eventually(async () => (await client.sandbox.listWebhookDeliveries({ query: {} })).find((d) => d.state === 'delivered'));
  return { merchant, client, payment, delivery };
}

/** Opens the inspector and signs in as a user would: type both keys, press Enter. */
export async function signIn(page: Page, url: string, merchant: SandboxMerchant): Promise<void> {
  await page.goto(`${url}/inspector`);
  await page.getByLabel('Public API key').fill(merchant.public_api_key);
  await page.getByLabel('Private secret key').fill(merchant.private_secret_key);
  await page.keyboard.press('Enter');
  await page.locator('#app').waitFor({ state: 'visible' });
}
