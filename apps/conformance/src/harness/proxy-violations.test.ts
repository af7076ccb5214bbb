import { describe, expect, it } from 'vitest';
import { isResponseError, parseProxyViolations, partialIsResponseError } from './proxy-violations.js';

const violation = (i: number, where: 'request' | 'response') => ({ location: [where, 'body', `field_${i}`], severity: 'Error', code: 'required', message: `must have required property 'field_${i}' "quoted" {braced}` });

/** What Prism 5 writes above its safe header length: the prefix and the JSON cut at 8 KB - 100 characters. */
const cut = (value: unknown[]) => `Too many violations! ${JSON.stringify(value).slice(0, 8 * 1024 - 100)}`;

describe("a validating proxy's violations header", () => {
  it('reads a whole header', () => {
    const report = parseProxyViolations(JSON.stringify([violation(1, 'response')]));
    expect(report).toEqual({ violations: [violation(1, 'response')], truncated: false, partial: null });
    expect(report.violations.filter(isResponseError)).toHaveLength(1);
  });

  it("reads a header Prism cut short at any size: every violation it holds whole, and the one it was cut in", () => {
    const all = Array.from({ length: 200 }, (_, i) => violation(i, i % 2 ? 'response' : 'request'));
    const report = parseProxyViolations(cut(all));
    expect(report.truncated).toBe(true);
    expect(report.violations.length).toBeGreaterThan(10);
    expect(report.violations).toEqual(all.slice(0, report.violations.length));
    expect(report.violations.filter(isResponseError).length).toBeGreaterThan(5);
    expect(report.partial).not.toBeNull();
  });

  it('finds a response error even when it is the violation the header was cut in', () => {
    const requests = Array.from({ length: 200 }, (_, i) => violation(i, 'request'));
    const header = cut(requests);
    const whole = parseProxyViolations(header);
    // Put a response violation exactly where the header is cut.
    const before = whole.violations.length;
    const bent = [...requests.slice(0, before), violation(999, 'response'), ...requests.slice(before)];
    const report = parseProxyViolations(cut(bent));
    expect(report.violations.filter(isResponseError)).toEqual([]);
    expect(partialIsResponseError(report.partial)).toBe(true);
  });

  it('names a header that is not an array', () => {
    expect(() => parseProxyViolations('{"a":1}')).toThrow(/not an array/);
    expect(() => parseProxyViolations('Too many violations! oops')).toThrow(/not an array/);
  });
});
