import { describe, expect, it } from 'vitest';
import { webAddress } from './web-address.js';

describe('webAddress', () => {
  it('takes an absolute http(s) URL whatever the case of its scheme', () => {
    expect(['https://shop.example/back?x=1', 'http://shop.example', 'HTTPS://shop.example/a', 'Http://shop.example'].map((u) => webAddress(u)?.href)).toEqual([
      'https://shop.example/back?x=1',
      'http://shop.example/',
      'https://shop.example/a',
      'http://shop.example/',
    ]);
  });

  it('refuses anything a page must not follow', () => {
    for (const text of [undefined, null, '', 'www.example.com', '/relative', 'http:shop.example', 'javascript:alert(1)', 'ftp://shop.example', 'https://', ' https://shop.example']) {
      expect(webAddress(text)).toBeUndefined();
    }
  });
});
