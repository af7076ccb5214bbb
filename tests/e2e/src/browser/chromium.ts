import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, type TestContext } from 'vitest';
import { startWorld, type World } from '../sandbox.js';

/**
 * The browser the suites drive: Debian's Chromium (`apt-get install chromium`), because
 * `npx playwright install` cannot download browsers on the machines this project runs on.
 * `SWITCHYARD_CHROMIUM` points at another binary.
 */
export const CHROMIUM_PATH = process.env.SWITCHYARD_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/**
 * Whether the browser suites can run here. Without Chromium a user's clone skips them with this
 * reason printed (here, once per suite that asks); under CI=true a missing browser is a failure, since `.ci/run` installs it.
 */
export function chromiumAvailability(): { available: boolean; reason: string } {
  if (existsSync(CHROMIUM_PATH)) return { available: true, reason: '' };
  const reason = `Chromium is not installed at ${CHROMIUM_PATH} (apt-get install chromium, or set SWITCHYARD_CHROMIUM)`;
  if (process.env.CI === 'true') throw new Error(`browser suites must run under CI=true: ${reason}`);
  // Printed by each suite that asks, so every skipped file says why.
  console.log(`browser suite skipped: ${reason}`);
  return { available: false, reason };
}

export function launchChromium(): Promise<Browser> {
  // Playwright's 30 s default was tight on a loaded CI machine; the test hooks allow 60 s.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS, timeout: 50_000 });
}

/**
 * Chromium and a sandbox world for the enclosing describe: started before its tests, closed after.
 * The returned object is filled in by the time the tests run.
 */
export function browserAndWorld(): { browser: Browser; world: World } {
  const held: Partial<{ browser: Browser; world: World }> = {};
  beforeAll(async () => {
    [held.browser, held.world] = await Promise.all([launchChromium(), startWorld()]);
  });
  afterAll(async () => {
    await Promise.all([held.browser?.close(), held.world?.stop()]);
  });
  return held as { browser: Browser; world: World };
}

const SCREENSHOT_DIR = new URL('../../reports/screenshots/', import.meta.url);

/** Where a screenshot the documentation shows goes (docs/images): the browser suites take them again on every run. */
export const docsImage = (name: string): string => new URL(`../../../../docs/images/${name}`, import.meta.url).pathname;

/**
 * Runs one browser test on a fresh page (its own context: no cookies or storage shared with other
 * tests). When the test fails, a full-page screenshot is written to reports/screenshots and
 * attached to the test's result (vitest annotations: printed under the failure and kept in the
 * JUnit report), then the failure goes on.
 */
export async function onPage(browser: Browser, context: TestContext, body: (page: Page) => Promise<void>, viewport = { width: 1280, height: 800 }): Promise<void> {
  const browserContext = await browser.newContext({ viewport });
  // Each wait (navigation, locator) may take longer than Playwright's 30 s default on a loaded CI
  // machine; a real hang still ends well inside the test's own time-out.
  browserContext.setDefaultTimeout(50_000);
  const page = await browserContext.newPage();
  try {
    await body(page);
  } catch (error) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
    const path = new URL(`${name}.png`, SCREENSHOT_DIR).pathname;
    // The page may be gone (a crashed renderer): the screenshot must not hide the real failure.
    const taken = await page.screenshot({ path, fullPage: true }).then(
      () => true,
      () => false,
    );
    if (taken) await context.annotate(`screenshot of the page at the failure (${page.url()})`, { path, contentType: 'image/png' });
    throw error;
  } finally {
    await browserContext.close();
  }
}
