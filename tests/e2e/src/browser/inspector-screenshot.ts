/**
 * Takes docs/images/inspector.png: a fresh sandbox, one merchant with a refunded payment whose
 * webhook was delivered, the inspector signed in at a phone's width with that payment and its
 * delivery open. Run it after changing the page (docs/inspector.md):
 *   npx -y pnpm@10 --filter @switchyard/sandbox-server exec tsx ../../tests/e2e/src/browser/inspector-screenshot.ts
 */
import { fixtures } from '@switchyard/contract/fixtures';
import { startWorld } from '../sandbox.js';
import { launchChromium } from './chromium.js';
import { merchantWithPayment, signIn, startReceiver } from './inspector-support.js';

const target = new URL('../../../../docs/images/inspector.png', import.meta.url).pathname;
const [browser, world, receiver] = await Promise.all([launchChromium(), startWorld(), startReceiver()]);
try {
  const { merchant, client, payment } = await merchantWithPayment(world.url, receiver.url);
  await client.payments.refund({ params: { id: payment.id, transaction_id: payment.transactions?.id as string }, body: { ...fixtures.refund(), amount: { currency: 'ARS', value: 10 } } });
  const page = await browser.newPage({ viewport: { width: 400, height: 1400 } });
  await signIn(page, world.url, merchant);
  await page.locator('#payments details.item > summary').first().click();
  await page.locator('#deliveries details.item > summary').first().click();
  await page.locator('#payments ul.lines li', { hasText: 'REFUND · SUCCEEDED' }).waitFor();
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: target });
  console.log(`wrote ${target}`);
} finally {
  await Promise.all([browser.close(), world.stop(), receiver.close()]);
}
