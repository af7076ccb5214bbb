import { existsSync } from 'node:fs';
import { describe, expect, it, type TestContext } from 'vitest';
import { browserAndWorld, chromiumAvailability, onPage } from './chromium.js';

const chromium = chromiumAvailability();

describe.skipIf(!chromium.available)('the browser harness', () => {
  const held = browserAndWorld();

  it('renders a sandbox page in Chromium', async (context) => {
    await onPage(held.browser, context, async (page) => {
      const response = await page.goto(`${held.world.url}/checkout/links/no-such-link`);
      expect(response?.status()).toBe(404);
      await expect(page.locator('h1').textContent()).resolves.toBe('Payment link not found');
    });
  });

  it('attaches a screenshot to a failing test and rethrows its error', async (context) => {
    const annotations: { message: string; path?: string }[] = [];
    const failing = {
      task: { name: 'a failing page test' },
      annotate: async (message: string, attachment?: { path?: string }) => {
        annotations.push({ message, path: attachment?.path });
      },
    } as unknown as TestContext;
    await expect(
      onPage(held.browser, failing, async (page) => {
        await page.goto(`${held.world.url}/health`);
        throw new Error('the assertion that failed');
      }),
    ).rejects.toThrow('the assertion that failed');
    expect(annotations).toHaveLength(1);
    expect(annotations[0]?.message).toContain('/health');
    expect(annotations[0]?.path && existsSync(annotations[0].path)).toBe(true);
    expect(context.task.name).toContain('screenshot');
  });
});
