/**
 * The violations a validating proxy reports in a response header (Stoplight Prism's
 * `sl-violations`): a JSON array, except above about 8 KB, where Prism cuts the JSON short and
 * prefixes it with `Too many violations! `. A cut header still names the violations it holds in
 * full, and the start of the one it was cut in.
 */
export interface ProxyViolation {
  location?: unknown[];
  severity?: unknown;
  code?: unknown;
  message?: unknown;
}

export interface ProxyReport {
  /** The violations read whole. */
  violations: ProxyViolation[];
  /** Whether the proxy cut the header short: more violations may have been left out. */
  truncated: boolean;
  /** The start of the violation the header was cut in, as text, when there is one. */
  partial: string | null;
}

const TRUNCATED_PREFIX = 'Too many violations! ';

/** The end index (exclusive) of the JSON value starting with `{` at `start`, or -1 if the text ends first. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth += 1;
    else if (ch === '}' || ch === ']') {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Reads the header at any size; a header that is not the proxy's array at all throws, naming it. */
export function parseProxyViolations(header: string): ProxyReport {
  const truncated = header.startsWith(TRUNCATED_PREFIX);
  const text = truncated ? header.slice(TRUNCATED_PREFIX.length) : header;
  if (!truncated) {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error(`the proxy's violations header is not an array: ${header.slice(0, 200)}`);
    return { violations: parsed as ProxyViolation[], truncated: false, partial: null };
  }
  if (!text.startsWith('[')) throw new Error(`the proxy's violations header is not an array: ${header.slice(0, 200)}`);
  const violations: ProxyViolation[] = [];
  let i = 1;
  for (;;) {
    while (i < text.length && (text[i] === ',' || text[i] === ' ' || text[i] === '\n')) i += 1;
    if (text[i] !== '{') return { violations, truncated, partial: null };
    const end = objectEnd(text, i);
    if (end === -1) return { violations, truncated, partial: text.slice(i) };
    violations.push(JSON.parse(text.slice(i, end)) as ProxyViolation);
    i = end;
  }
}

/** Whether a violation is an error in a response (not a warning, not about the request). */
export const isResponseError = (v: ProxyViolation) => Array.isArray(v.location) && v.location[0] === 'response' && v.severity === 'Error';

/** Whether the violation the header was cut in is, as far as it goes, an error in a response. */
export const partialIsResponseError = (partial: string | null) => partial !== null && /"location":\["response"/.test(partial) && /"severity":"Error"/.test(partial);
