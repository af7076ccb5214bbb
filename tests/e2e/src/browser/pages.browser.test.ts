import type { Page } from 'playwright-core';
// jsqr is CommonJS: its module object is the decoder, with the decoder again as `default`, the one its types name.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import type { CreatePaymentBody } from '@switchyard/contract';
import { browserAndWorld, chromiumAvailability, docsImage, onPage } from './chromium.js';

/**
 * The pages a newcomer opens first, in Chromium at a phone's width: the index and the payer pages
 * of QR methods, whose QR image a scanner must read back to the copy-and-paste code. They write
 * the screenshots docs/ shows (docs/images).
 */

const chromium = chromiumAvailability();
const PHONE = { width: 360, height: 740 };

/** The page fits the phone's width: nothing scrolls sideways. */
async function fitsPhone(page: Page): Promise<void> {
  const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, viewport: window.innerWidth }));
  expect(widths).toEqual({ content: widths.viewport, viewport: PHONE.width });
}

/** Every request the page made answered below 400: its stylesheet and icon included. */
function failedRequests(page: Page): string[] {
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));
  return failed;
}

describe.skipIf(!chromium.available)('the index and the payer pages in a browser', { timeout: 180_000 }, () => {
  const held = browserAndWorld();

  it('shows the index styled at 360 px, linking the inspector, the OpenAPI document and the docs', async (context) => {
    await onPage(
      held.browser,
      context,
      async (page) => {
        const failed = failedRequests(page);
        await page.goto(`${held.world.url}/`);
        await expect(page.evaluate(() => getComputedStyle(document.body).fontFamily)).resolves.toContain('system-ui');
        await expect(page.locator('a[data-inspector]').getAttribute('href')).resolves.toBe('/inspector');
        await expect(page.locator('a[data-openapi]').getAttribute('href')).resolves.toBe('/openapi.json');
        await expect(page.locator('a[data-doc]').count()).resolves.toBeGreaterThan(3);
        await fitsPhone(page);
        await page.screenshot({ path: docsImage('index.png'), fullPage: true });
        const doc = await page.request.get(`${held.world.url}${(await page.locator('a[data-doc]').first().getAttribute('href')) ?? ''}`);
        expect(doc.status()).toBe(200);
        expect(failed).toEqual([]);
      },
      PHONE,
    );
  });

  it.for([
    ['PIX', 'BRL', 'BR', 'payer-pix.png'],
    ['CODI', 'MXN', 'MX', undefined],
  ] as const)('shows a %s payment\'s QR code as an image a scanner reads back to its copy-and-paste code', async ([type, currency, country, screenshot], context) => {
    const body: CreatePaymentBody = {
      account_id: held.world.accountId,
      merchant_order_id: `order-${type.toLowerCase()}`,
      description: `Order paid with ${type}`,
      country,
      amount: { currency, value: 1249.9 },
      workflow: 'DIRECT',
      payment_method: { type },
    };
    const payment = await held.world.client.payments.create({ body });
    const redirect = payment.payment_method.payment_method_detail?.bank_transfer?.redirect_url;
    if (!redirect) throw new Error(`${type} payment without a payer page`);
    await onPage(
      held.browser,
      context,
      async (page) => {
        const failed = failedRequests(page);
        await page.goto(redirect);
        const code = await page.locator('[data-qr-code]').textContent();
        expect(code).toBe(payment.payment_method.payment_method_detail?.bank_transfer?.code);
        // What a phone's camera sees: the rendered image, read by a QR decoder.
        const png = PNG.sync.read(await page.locator('[data-qr-image]').screenshot());
        expect(jsQR.default(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(code);
        await expect(page.locator('[data-amount]').textContent()).resolves.toBe(`${currency}\u00a01,249.90`);
        await fitsPhone(page);
        if (screenshot) await page.screenshot({ path: docsImage(screenshot), fullPage: true });
        expect(failed).toEqual([]);
      },
      PHONE,
    );
  });
});
