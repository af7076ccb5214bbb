import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { keysOf, newMerchant, raw, startSandbox } from '../../test-support/harness.js';

describe('request logs', () => {
  it('mask card numbers in the path, in every format, and never log keys', async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const { url, stop } = await startSandbox({}, { logger });
    try {
      const merchant = await newMerchant(url);
      for (const number of ['4111111111111111', '4111.1111.1111.1111', '4111_1111_1111_1111', '4111-1111-1111-1111']) {
        await raw(url, `/v1/customers/${number}`, { headers: keysOf(merchant) });
      }
      const logged = lines.join('\n');
      expect(logged).toContain('/v1/customers/***1111');
      expect(logged).not.toMatch(/4111[ ._-]?1111/);
      expect(logged).not.toContain(merchant.private_secret_key);
    } finally {
      await stop();
    }
  });
});
