/** Headers as a plain record (lower-case names), the form errors and hooks carry. */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    out[name] = value;
  });
  return out;
}

/** Drops headers without a value (ts-rest may pass placeholders for optional ones). */
export function cleanHeaders(headers: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
}
