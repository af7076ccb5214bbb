import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type SwitchyardClient } from '@switchyard/client';
import type { Payment, SandboxMerchant, WebhookDelivery } from '@switchyard/contract';
import { fixtures } from '@switchyard/contract/fixtures';
import { startWorld, type World } from '../sandbox.js';
import { chromiumAvailability, launchChromium, onPage } from './chromium.js';

const chromium = chromiumAvailability();
if (!chromium.available) console.log(`browser suite skipped: ${chromium.reason}`);

/** A merchant_order_id that would run script if any page put it through an HTML parser. */
const HOSTILE = '<img src=x onerror=alert(1)>';

/** A webhook receiver that answers 200 to everything. */
async function startReceiver(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

/** Asks until `check` answers a value: the dispatcher records an attempt after the receiver has answered. */
async function eventually<T>(check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 250; i += 1) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met');
}

async function signIn(page: Page, url: string, merchant: SandboxMerchant): Promise<void> {
  await page.goto(`${url}/inspector`);
  await page.getByLabel('Public API key').fill(merchant.public_api_key);
  await page.getByLabel('Private secret key').fill(merchant.private_secret_key);
  await page.keyboard.press('Enter');
  await page.locator('#app').waitFor({ state: 'visible' });
}

describe.skipIf(!chromium.available)('the inspector', () => {
  let browser: Browser;
  let world: World;
  let receiver: { server: Server; url: string };
  let merchant: SandboxMerchant;
  let client: SwitchyardClient;
  let payment: Payment;
  let delivery: WebhookDelivery;

  beforeAll(async () => {
    [browser, world, receiver] = await Promise.all([launchChromium(), startWorld(), startReceiver()]);
    // A merchant of this file's own, whose keys the page signs in with.
    merchant = await createClient({ baseUrl: world.url, publicApiKey: 'none', privateSecretKey: 'none' }).sandbox.createMerchant({ body: { name: 'inspector' } });
    client = createClient({ baseUrl: world.url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key, validateResponses: true });
    const accountId = merchant.account_ids[0] as string;
    await client.webhooks.create({ body: { account_id: accountId, name: 'inspector', url: receiver.url, hmac_client_secret: 'inspector-secret', payment_triggers: ['PURCHASE'] } });
    const session = await client.checkout.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
    payment = await client.payments.create({ body: { ...fixtures.createPayment(session.checkout_session, '4111111111111111'), account_id: accountId, merchant_order_id: HOSTILE } });
    delivery = await eventually(async () => (await client.sandbox.listWebhookDeliveries({ query: {} })).find((d) => d.state === 'delivered'));
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), world?.stop(), receiver && new Promise<void>((r) => receiver.server.close(() => r()))]);
  });

  it('shows the payment, its webhook delivery with the exact bytes, and its events; merchant text stays text; the keys stay in the session', async (context) => {
    await onPage(browser, context, async (page) => {
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      const response = await page.goto(`${world.url}/inspector`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await signIn(page, world.url, merchant);

      const shown = page.locator('#payments details.item', { hasText: HOSTILE });
      await shown.locator(':scope > summary').click();
      await expect(shown.locator('dd').first().textContent()).resolves.toBe(payment.id);
      await expect(shown.locator('ul.lines').last().textContent()).resolves.toContain('payment.purchase');
      expect(await page.locator('img').count()).toBe(0);

      const [attempt] = delivery.attempts;
      const shownDelivery = page.locator('#deliveries details.item', { hasText: 'payment.purchase' });
      await expect(shownDelivery.locator(':scope > summary').textContent()).resolves.toContain('delivered');
      await shownDelivery.locator(':scope > summary').click();
      await expect(shownDelivery.locator('pre.bytes').textContent()).resolves.toBe(attempt?.request_body);
      await expect(shownDelivery.textContent()).resolves.toContain(attempt?.signature);

      await page.locator('#events details.item', { hasText: 'payment.purchase' }).first().waitFor();
      // The journal route is another change's: the page says when this sandbox has none.
      const journal = await fetch(`${world.url}/sandbox/requests`, { headers: { 'public-api-key': merchant.public_api_key, 'private-secret-key': merchant.private_secret_key } });
      const journalBound = page.locator('#journal .bound');
      if (journal.status === 404) await expect(journalBound.textContent()).resolves.toBe('Journal not available in this sandbox.');
      else await expect(journalBound.textContent()).resolves.not.toContain('not available');

      const storage = (await page.evaluate('JSON.stringify([localStorage.length, document.cookie, sessionStorage.length])')) as string;
      expect(JSON.parse(storage)).toEqual([0, '', 1]);
      expect(await page.context().cookies()).toEqual([]);
      expect(page.url()).toBe(`${world.url}/inspector`);
      expect(page.url()).not.toContain(merchant.private_secret_key);
      expect(dialogs).toEqual([]);
    });
  });

  it('advances the clock and redelivers a webhook by keyboard alone, at 360 px wide', async (context) => {
    await onPage(
      browser,
      context,
      async (page) => {
        await signIn(page, world.url, merchant);
        const before = (await client.sandbox.getClock()).offset_seconds;
        await page.getByLabel('Advance the clock by').fill('2');
        await page.getByLabel('Unit').selectOption({ label: 'days' });
        await page.getByLabel('Advance the clock by').press('Enter');
        await page.locator('#clock', { hasText: `offset ${before + 2 * 86400} s` }).waitFor();

        const shown = page.locator('#deliveries details.item', { hasText: 'payment.purchase' });
        await shown.locator(':scope > summary').focus();
        await page.keyboard.press('Enter');
        await shown.getByRole('button', { name: 'Redeliver' }).focus();
        await page.keyboard.press('Enter');
        await page.locator('#deliveries details.item summary', { hasText: '2 attempts' }).waitFor();
        const [after] = (await client.sandbox.listWebhookDeliveries({ query: {} })).filter((d) => d.id === delivery.id);
        expect(after?.attempts).toHaveLength(2);
        expect(await shown.locator('pre.bytes').count()).toBe(2);

        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
      },
      { width: 360, height: 740 },
    );
  });
});
