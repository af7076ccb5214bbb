import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@switchyard/client';
import { fixtures } from '@switchyard/contract/fixtures';
import { startWorld, type World } from '../sandbox.js';
import { chromiumAvailability, docsImage, launchChromium, onPage } from './chromium.js';
import { HOSTILE, merchantWithPayment, signIn, startReceiver, type InspectedMerchant } from './inspector-support.js';

const chromium = chromiumAvailability();

describe.skipIf(!chromium.available)('the inspector', () => {
  let browser: Browser;
  let world: World;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let inspected: InspectedMerchant;

  // Hang detectors, not speed goals: Chromium's launch is allowed 50 s and the payment's webhook
  // delivery 45 s (merchantWithPayment), one after the other, which the preset's 60 s for a hook
  // cannot hold on a slow, busy machine.
  beforeAll(async () => {
    [browser, world, receiver] = await Promise.all([launchChromium(), startWorld(), startReceiver()]);
    inspected = await merchantWithPayment(world.url, receiver.url);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([browser?.close(), world?.stop(), receiver?.close()]);
  });

  it('shows the payment, its webhook delivery with the exact bytes, and its events; merchant text stays text; the keys stay in the session', async (context) => {
    const { merchant, payment, delivery } = inspected;
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
      await expect(page.locator('#merchant').textContent()).resolves.toBe(`${merchant.name} (${merchant.id}; accounts ${merchant.account_ids.join(', ')})`);
      // The payment's timeline: its transaction, its event and the attempt that delivered its webhook.
      const timeline = shown.locator('ol.timeline');
      await timeline.locator('li', { hasText: 'Webhook' }).first().waitFor();
      expect(await timeline.locator('li .kind').allTextContents()).toEqual(expect.arrayContaining(['Transaction', 'Event', 'Webhook']));
      await expect(timeline.textContent()).resolves.toContain('payment.purchase');
      expect(await page.locator('img').count()).toBe(0);

      const [attempt] = delivery.attempts;
      const shownDelivery = page.locator('#deliveries details.item', { hasText: 'payment.purchase' });
      await expect(shownDelivery.locator(':scope > summary').textContent()).resolves.toContain('delivered');
      await shownDelivery.locator(':scope > summary').click();
      await expect(shownDelivery.locator('pre.bytes').textContent()).resolves.toBe(attempt?.request_body);
      await expect(shownDelivery.textContent()).resolves.toContain(attempt?.signature);
      // A duration a person reads: no six decimals.
      await expect(shownDelivery.textContent()).resolves.toMatch(/Duration(\d+\.\d ms|\d+ ms|\d+\.\d s)Signature/);

      await page.locator('#events details.item', { hasText: 'payment.purchase' }).first().waitFor();
      // The journal route is another change's: the page says when this sandbox has none.
      const journal = await fetch(`${world.url}/sandbox/requests`, { headers: { 'public-api-key': merchant.public_api_key, 'private-secret-key': merchant.private_secret_key } });
      const journalBound = page.locator('#journal .bound');
      if (journal.status === 404) await expect(journalBound.textContent()).resolves.toBe('Journal not available in this sandbox.');
      else await page.locator('#journal details.item > summary', { hasText: 'POST /v1/payments' }).waitFor();

      const storage = (await page.evaluate('JSON.stringify([localStorage.length, document.cookie, sessionStorage.length])')) as string;
      expect(JSON.parse(storage)).toEqual([0, '', 1]);
      expect(await page.context().cookies()).toEqual([]);
      expect(page.url()).toBe(`${world.url}/inspector`);
      expect(page.url()).not.toContain(merchant.private_secret_key);
      expect(dialogs).toEqual([]);
    });
  });

  it('advances the clock and redelivers a webhook by keyboard alone, at 360 px wide', async (context) => {
    const { merchant, client, delivery } = inspected;
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

  it("scripts a vaulted method's outcome from the page, and shows the subscription cycle it declined", async (context) => {
    const { merchant, client } = inspected;
    const accountId = merchant.account_ids[0] as string;
    const customer = await client.customers.create({ body: { merchant_customer_id: 'inspector-subscriber' } });
    const method = await client.paymentMethods.enrollDirect({ params: { customer_id: customer.id }, body: { ...fixtures.enrollDirect(), account_id: accountId } });
    await onPage(browser, context, async (page) => {
      await signIn(page, world.url, merchant);
      await page.getByLabel('vaulted token').fill(method.vaulted_token);
      await page.getByLabel('Outcomes, in order').fill('DECLINED');
      await page.getByRole('button', { name: 'Script outcomes' }).click();
      await page.locator('#status', { hasText: 'Script outcomes: done' }).waitFor();

      // The first cycle is charged when the subscription is created: the scripted DECLINED.
      const subscription = await client.subscriptions.create({ body: { ...fixtures.createSubscription(method.vaulted_token), account_id: accountId } });
      const shown = page.locator('#subscriptions details.item', { hasText: subscription.name });
      await shown.locator(':scope > summary').click();
      await shown.locator('ul.lines li', { hasText: 'DECLINED' }).waitFor();
      await page.locator('#customers details.item > summary', { hasText: 'inspector-subscriber' }).waitFor();
    });
  });

  it('signs itself out, with the reason, once the secret key it holds is rotated; the new key signs in', async (context) => {
    const merchant = await createClient({ baseUrl: world.url, publicApiKey: 'none', privateSecretKey: 'none' }).sandbox.createMerchant({ body: { name: 'rotated' } });
    await onPage(browser, context, async (page) => {
      await signIn(page, world.url, merchant);
      await page.locator('#merchant', { hasText: merchant.id }).waitFor();
      const rotated = await createClient({ baseUrl: world.url, publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key }).sandbox.rotateSecretKey();
      // The page's own refresh (every 2 s) meets the refusal: nobody acts on the page.
      await page.locator('#signin').waitFor({ state: 'visible' });
      await expect(page.locator('#error').textContent()).resolves.toBe('The sandbox refused these keys: INVALID_CREDENTIALS: invalid API credentials');
      expect(await page.evaluate('sessionStorage.length')).toBe(0);
      await signIn(page, world.url, rotated);
      await page.locator('#merchant', { hasText: merchant.id }).waitFor();
    });
  });

  it('takes docs/images/inspector.png: a refunded payment and its timeline, at 400 px', async (context) => {
    // A merchant of its own: the picture shows one payment's story, not the other tests' records.
    const { merchant, client, payment } = await merchantWithPayment(world.url, receiver.url);
    await client.payments.refund({ params: { id: payment.id, transaction_id: payment.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 10 } } });
    await onPage(
      browser,
      context,
      async (page) => {
        await signIn(page, world.url, merchant);
        await page.locator('#payments details.item > summary').first().click();
        await page.locator('#deliveries details.item > summary').first().click();
        await page.locator('#payments ol.timeline li', { hasText: 'REFUND · SUCCEEDED' }).waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(400);
        // The payment with its timeline: what the page is for, below the controls.
        await page.locator('#payments').screenshot({ path: docsImage('inspector.png') });
      },
      { width: 400, height: 900 },
    );
  });
});
