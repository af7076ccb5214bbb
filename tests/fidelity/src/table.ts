/**
 * The exceptions table of docs/fidelity.md, the one list of upstream examples the sandbox may answer
 * differently from upstream. The suite reads it from the document itself, between two markers.
 */
export const TABLE_START = '<!-- fidelity-table:start -->';
export const TABLE_END = '<!-- fidelity-table:end -->';
export const COUNTS_START = '<!-- fidelity-counts:start -->';
export const COUNTS_END = '<!-- fidelity-counts:end -->';

export const KINDS = ['schema-broken', 'deliberate', 'open'] as const;
export type Kind = (typeof KINDS)[number];
export const CHECKS = ['status', 'response'] as const;
export type Check = (typeof CHECKS)[number];

export interface Row {
  /** `file#name` of the upstream example. */
  example: string;
  check: Check;
  kind: Kind;
  /** The finding the row is tied to (`N1`, ... in docs/fidelity.md), the spec section for a deliberate row, or `—`. */
  item: string;
  /** For a schema-broken row, the rule of upstream's own request schema the example breaks. */
  rule: string;
  /** The sandbox's answer today: `400 INVALID_REQUEST: checkout`, `200`, or for a response row `3: callback_url, metadata`. */
  answer: string;
  why: string;
}

const cell = (text: string) => text.trim().replace(/^`(.*)`$/, '$1');

/** The body lines of the markdown table between two markers (its header and separator dropped). */
function tableLines(markdown: string, startMarker: string, endMarker: string): string[] {
  const start = markdown.indexOf(startMarker);
  const end = markdown.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`docs/fidelity.md must hold a table between ${startMarker} and ${endMarker}`);
  return markdown
    .slice(start + startMarker.length, end)
    .split('\n')
    .filter((line) => line.trim().startsWith('|'))
    .slice(2);
}

/** The counts table: category to number of examples. */
export function parseCounts(markdown: string): Record<string, number> {
  return Object.fromEntries(
    tableLines(markdown, COUNTS_START, COUNTS_END).map((line) => {
      const [label, value] = line.trim().slice(1, -1).split(' | ').map((text) => text.trim());
      return [label ?? '', Number(value)];
    }),
  );
}

export function parseTable(markdown: string): Row[] {
  return tableLines(markdown, TABLE_START, TABLE_END).map((line, index) => {
    const cells = line.trim().slice(1, -1).split(' | ').map(cell);
    if (cells.length !== 7) throw new Error(`docs/fidelity.md table row ${index + 1} has ${cells.length} cells, not 7: ${line}`);
    const [example, check, kind, item, rule, answer, why] = cells as [string, string, string, string, string, string, string];
    if (!(CHECKS as readonly string[]).includes(check)) throw new Error(`docs/fidelity.md table row ${index + 1}: check must be one of ${CHECKS.join(', ')}`);
    if (!(KINDS as readonly string[]).includes(kind)) throw new Error(`docs/fidelity.md table row ${index + 1}: kind must be one of ${KINDS.join(', ')}`);
    if (kind === 'schema-broken' && rule === '') throw new Error(`docs/fidelity.md table row ${index + 1}: a schema-broken row names the rule broken`);
    if (why === '') throw new Error(`docs/fidelity.md table row ${index + 1}: every row says why`);
    return { example, check: check as Check, kind: kind as Kind, item, rule, answer, why };
  });
}

/** The top-level field an error is about: the first step of its path, or the property missing at the root. */
function topLevelField(error: string): string {
  const step = error.split(' ')[0]?.split('/')[1];
  if (step) return step;
  return /must have required property '([^']+)'/.exec(error)?.[1] ?? '(root)';
}

/** How a response row records today's divergence: the error count and the top-level fields involved. */
export function describeResponseErrors(errors: string[]): string {
  const fields = [...new Set(errors.map(topLevelField))].sort();
  return `${errors.length}: ${fields.join(', ')}`;
}
