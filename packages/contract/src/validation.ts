import { addIssueToContext, INVALID, ZodArray, ZodIssueCode, type ArrayCardinality, type ParseInput, type ParseReturnType, type ZodError, type ZodIssue, type ZodTypeAny } from 'zod';

/**
 * At most this many messages in one error answer, plus one that counts the rest: a body of
 * millions of bad array items must not become an answer of millions of lines (docs/sandbox.md).
 */
export const MAX_ERROR_MESSAGES = 20;
/** Longest message, in characters; longer ones (a huge unknown key echoed back) are cut. */
export const MAX_MESSAGE_LENGTH = 200;
/** Longest field name quoted inside a message (keys are caller input). */
const MAX_QUOTED_KEY = 40;
/** Most unknown field names one message lists. */
const MAX_LISTED_KEYS = 5;

/** `text` cut to `max` characters with an ellipsis, never between the two halves of a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 2)) ? max - 2 : max - 1;
  return `${text.slice(0, end)}…`;
}

/** Where a value was read from; prefixes the field path in messages. */
export type IssueLocation = 'body' | 'query' | 'path' | 'headers' | 'response';

/** `amount.value`, `evidence[0].content`: the field path as a reader writes it. */
export function formatIssuePath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, part) => {
    if (typeof part === 'number') return `${acc}[${part}]`;
    return acc ? `${acc}.${part}` : part;
  }, '');
}

function listKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_LISTED_KEYS).map((key) => clip(key, MAX_QUOTED_KEY));
  return keys.length > MAX_LISTED_KEYS ? `${shown.join(', ')} and ${keys.length - MAX_LISTED_KEYS} more` : shown.join(', ');
}

function describeIssue(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.received === 'undefined' ? 'is required' : `must be ${issue.expected}, received ${issue.received}`;
    case 'invalid_enum_value':
      return `must be one of ${issue.options.join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown field(s) ${listKeys(issue.keys)}`;
    case 'too_small':
      if (issue.type === 'string') return issue.exact ? `must be exactly ${issue.minimum} characters` : `must be at least ${issue.minimum} characters`;
      if (issue.type === 'array') return `must have at least ${issue.minimum} item(s)`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.type === 'string') return issue.exact ? `must be exactly ${issue.maximum} characters` : `must be at most ${issue.maximum} characters`;
      if (issue.type === 'array') return `must have at most ${issue.maximum} item(s)`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'invalid_union_discriminator':
      return `must be one of ${issue.options.map(String).join(', ')}`;
    case 'invalid_string':
      if (issue.validation === 'regex') return issue.message === 'Invalid' ? 'has an invalid format' : issue.message;
      if (typeof issue.validation === 'string') return `must be a valid ${issue.validation.replace('datetime', 'ISO 8601 date-time')}`;
      return issue.message;
    default:
      return issue.message;
  }
}

/** How many of `total` problems are written out: all of them, or MAX_ERROR_MESSAGES and a line counting the rest. */
const shownOf = (total: number) => (total <= MAX_ERROR_MESSAGES + 1 ? total : MAX_ERROR_MESSAGES);

/**
 * Keeps an answer's messages bounded: at most MAX_ERROR_MESSAGES + 1 lines, each at most
 * MAX_MESSAGE_LENGTH characters; past that, the first MAX_ERROR_MESSAGES and one line counting
 * the rest of `total`. Bounding bounded messages changes nothing.
 */
export function boundMessages(messages: readonly string[], total = messages.length): string[] {
  const kept = messages.slice(0, shownOf(total)).map((m) => clip(m, MAX_MESSAGE_LENGTH));
  if (total > kept.length) kept.push(`and ${total - kept.length} more problem(s) not listed`);
  return kept;
}

/** `body.amount.value`, `query.limit`, `body[0]`: a field as messages name it (long keys cut). */
export function fieldLabel(location: IssueLocation, path: ReadonlyArray<string | number>): string {
  const field = formatIssuePath(path.map((part) => (typeof part === 'string' ? clip(part, MAX_QUOTED_KEY) : part)));
  return `${location}${field === '' || field.startsWith('[') ? '' : '.'}${field}`;
}

function describeOne(issue: ZodIssue, location: IssueLocation): string {
  return `${fieldLabel(location, issue.path)}: ${describeIssue(issue)}`;
}

const issuesOf = (error: ZodError | readonly ZodIssue[]) => (Array.isArray(error) ? (error as readonly ZodIssue[]) : (error as ZodError).issues);

/**
 * Turns zod issues into messages: one line per issue, each naming the field, for example
 * `body.amount.value: must be a multiple of 0.0001 (at most 4 decimals)`. zod's own wording and
 * internals never reach the caller. Every issue gets its line (the client reports its own
 * findings in full); an API answer uses describeRequestIssues, which is bounded.
 */
export function describeIssues(error: ZodError | readonly ZodIssue[], location: IssueLocation): string[] {
  return issuesOf(error).map((issue) => describeOne(issue, location));
}

/**
 * The API's `messages` for one request's failures, in the order path, headers, query, body;
 * bounded as a whole (boundMessages), and only the lines kept are written.
 */
export function describeRequestIssues(parts: Partial<Record<IssueLocation, ZodError | readonly ZodIssue[] | null | undefined>>): string[] {
  const located = (['path', 'headers', 'query', 'body'] as const).flatMap((location) => {
    const error = parts[location];
    return error ? issuesOf(error).map((issue) => ({ issue, location })) : [];
  });
  return boundMessages(located.slice(0, shownOf(located.length)).map(({ issue, location }) => describeOne(issue, location)), located.length);
}

/**
 * Most items of a request array whose limit neither the spec (§8) nor upstream's reference
 * gives; far above any real order, ticket or tax list (docs/contract-vs-upstream.md).
 */
export const UNSPECIFIED_ARRAY_LIMIT = 100;

/**
 * An array schema that checks its length before its items. zod's own array checks the length,
 * then parses every item anyway: a 5 MB body of `[0, 0, ...]` in a field of at most 50 items
 * cost millions of issues and seconds of CPU. This one answers "too many items" alone.
 */
class LengthFirstArray<T extends ZodTypeAny, C extends ArrayCardinality> extends ZodArray<T, C> {
  override _parse(input: ParseInput): ParseReturnType<this['_output']> {
    const max = this._def.maxLength;
    if (max !== null && Array.isArray(input.data) && input.data.length > max.value) {
      const ctx = this._getOrReturnCtx(input);
      addIssueToContext(ctx, { code: ZodIssueCode.too_big, maximum: max.value, type: 'array', inclusive: true, exact: false, message: max.message });
      return INVALID;
    }
    return super._parse(input);
  }

  // zod's length rules build a plain array again; these keep the length checked first.
  override min(minLength: number, message?: string): this {
    return new LengthFirstArray(super.min(minLength, message)._def) as this;
  }

  override max(maxLength: number, message?: string): this {
    return new LengthFirstArray(super.max(maxLength, message)._def) as this;
  }

  override length(len: number, message?: string): this {
    return new LengthFirstArray(super.length(len, message)._def) as this;
  }
}

/**
 * A request array of at most `max` items (UNSPECIFIED_ARRAY_LIMIT where neither the spec nor
 * upstream gives one), its length checked before any item is parsed.
 */
export function listOf<T extends ZodTypeAny>(item: T, max: number = UNSPECIFIED_ARRAY_LIMIT): ZodArray<T> {
  return new LengthFirstArray<T, 'many'>(ZodArray.create(item).max(max)._def);
}
