import { addIssueToContext, defaultErrorMap, INVALID, z, ZodArray, ZodIssueCode, ZodNumber, ZodParsedType, type ArrayCardinality, type ParseInput, type ParseReturnType, type ZodError, type ZodIssue, type ZodNumberCheck, type ZodTypeAny } from 'zod';

/**
 * At most this many messages in one error answer, plus one that counts the rest: a body of
 * millions of bad array items must not become an answer of millions of lines (docs/sandbox-errors.md).
 */
export const MAX_ERROR_MESSAGES = 20;
/** Longest message, in characters; longer ones (a huge unknown key echoed back) are cut. */
export const MAX_MESSAGE_LENGTH = 200;
/** Longest field name quoted inside a message (keys are caller input). */
const MAX_QUOTED_KEY = 40;
/** Most unknown field names one message lists. */
const MAX_LISTED_KEYS = 5;
/**
 * Longest list of enum values a message writes out whole (`must be one of AR, BO, ...`). A longer
 * enum (249 countries, 28 operationIds) names a few values, how many more there are and where all
 * of them are listed: written out whole, its list was cut at MAX_MESSAGE_LENGTH partway through,
 * seldom at the value a caller was looking for.
 */
const MAX_LISTED_OPTIONS_CHARS = 120;
/** Most values a long enum's message names before counting the rest. */
const MAX_SAMPLED_OPTIONS_CHARS = 60;
/** Where every enum of the contract is listed, value by value. */
const ENUM_VALUES_DOC = 'docs/api-reference.md';
/** Most close values one message suggests. */
const MAX_SUGGESTIONS = 3;

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

/** Caller input quoted in a message: cut to MAX_QUOTED_KEY characters, escaped as a JSON string. */
function quoteInput(text: string): string {
  return JSON.stringify(clip(text, MAX_QUOTED_KEY));
}

function listKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, MAX_LISTED_KEYS).map((key) => clip(key, MAX_QUOTED_KEY));
  return keys.length > MAX_LISTED_KEYS ? `${shown.join(', ')} and ${keys.length - MAX_LISTED_KEYS} more` : shown.join(', ');
}

/** The message a schema gave its rule (`z.enum(values, { message })`), or undefined when zod's own stands. */
function schemaMessage(issue: ZodIssue): string | undefined {
  return issue.message === defaultErrorMap(issue, { data: undefined, defaultError: '' }).message ? undefined : issue.message;
}

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The values a caller most likely meant by `received`: those equal to it but for case and
 * separators (`mx`, `create-customer`), else the nearest within a third of its length. Long input
 * gets none: it is no typo of a value, and the distance costs its length times each value's.
 */
function closestOptions(received: string, options: readonly string[]): string[] {
  if (received.length > MAX_QUOTED_KEY) return [];
  const normal = (text: string) => text.toLowerCase().replace(/[-_\s]/g, '');
  const wanted = normal(received);
  const same = options.filter((option) => normal(option) === wanted);
  if (same.length > 0) return same.slice(0, MAX_SUGGESTIONS);
  const within = Math.floor(wanted.length / 3);
  const near = options.map((option) => ({ option, distance: editDistance(wanted, normal(option)) })).filter((o) => o.distance <= within);
  const best = Math.min(...near.map((o) => o.distance));
  return near.filter((o) => o.distance === best).slice(0, MAX_SUGGESTIONS).map((o) => o.option);
}

/**
 * What a value outside an enum is told: every value when they fit in MAX_LISTED_OPTIONS_CHARS;
 * else the closest values to `received` if any are close, or the first few, with how many there
 * are and where all are listed. A schema's own message (`own`) replaces the list; the closest
 * values are still named when the enum is long.
 */
function describeEnumMiss(options: ReadonlyArray<string | number>, received: unknown, own: string | undefined): string {
  const values = options.map((option) => clip(String(option), MAX_QUOTED_KEY));
  const all = values.join(', ');
  if (all.length <= MAX_LISTED_OPTIONS_CHARS) return own ?? `must be one of ${all}`;
  const closest = typeof received === 'string' ? closestOptions(received, values) : [];
  const suggestion = closest.length > 0 ? `; did you mean ${closest.join(' or ')}?` : '';
  if (own !== undefined) return `${own}${suggestion}`;
  if (suggestion) return `must be one of ${values.length} values, all listed in ${ENUM_VALUES_DOC}${suggestion}`;
  let sample = values.slice(0, 1);
  for (const value of values.slice(1)) {
    if ([...sample, value].join(', ').length > MAX_SAMPLED_OPTIONS_CHARS) break;
    sample = [...sample, value];
  }
  return `must be one of ${sample.join(', ')} and ${values.length - sample.length} more, all listed in ${ENUM_VALUES_DOC}`;
}

/** Whether an invalid_type issue expected a type (`number`) rather than an enum's values. */
const isTypeName = (expected: string) => Object.hasOwn(ZodParsedType, expected);
/**
 * What an invalid_type issue expected: a type (`number`), or an enum's values, which zod joins
 * into the type's name (`'createCustomer' | 'getCustomer' | ...`).
 */
const expectedOf = (expected: string): string[] => (isTypeName(expected) ? [expected] : expected.split(' | ').map((value) => value.replace(/^'(.*)'$/, '$1')));

/**
 * What a union's value is told when no alternative took it. When each alternative refused the
 * value itself for its type or value (`true` where a number or a string goes), the alternatives
 * are named; zod's own "Invalid input" says nothing.
 */
function describeUnionMiss(unionErrors: readonly ZodError[], path: ReadonlyArray<string | number>): string {
  const alternatives: string[] = [];
  for (const error of unionErrors) {
    const [issue, ...more] = error.issues;
    if (!issue || more.length > 0 || issue.path.length !== path.length) return 'matches none of the forms this field takes';
    if (issue.code === 'invalid_type') alternatives.push(...expectedOf(issue.expected));
    else if (issue.code === 'invalid_literal') alternatives.push(JSON.stringify(issue.expected));
    else if (issue.code === 'invalid_enum_value') alternatives.push(...issue.options.map(String));
    else return 'matches none of the forms this field takes';
  }
  return `must be ${clip([...new Set(alternatives)].join(' or '), MAX_LISTED_OPTIONS_CHARS)}`;
}

function describeIssue(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.received === 'undefined') return 'is required';
      // An enum given another type: its values are described as for a value outside them, not all joined.
      if (!isTypeName(issue.expected)) return `${describeEnumMiss(expectedOf(issue.expected), undefined, schemaMessage(issue))}, received ${issue.received}`;
      return `must be ${issue.expected}, received ${issue.received}`;
    }
    case 'invalid_enum_value':
      return describeEnumMiss(issue.options, issue.received, schemaMessage(issue));
    case 'invalid_union':
      return schemaMessage(issue) ?? describeUnionMiss(issue.unionErrors, issue.path);
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
      return describeEnumMiss(issue.options.map(String), undefined, undefined);
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

/** Most digits a query number may have: every whole number of 15 digits converts to a number exactly. */
const MAX_QUERY_DIGITS = 15;
const WHOLE_NUMBER = new RegExp(`^-?\\d{1,${MAX_QUERY_DIGITS}}$`);

/**
 * A whole number read from a query string. zod's `z.coerce.number()` turned `abc` into NaN
 * ("must be number, received nan"), an empty `limit=` into 0 and `0x10` into 16; this one takes
 * decimal digits only and names what it received otherwise. A number (a caller parsing its own
 * query object) is checked as it is.
 */
class QueryInteger extends ZodNumber {
  override _parse(input: ParseInput): ParseReturnType<number> {
    if (typeof input.data === 'string') {
      const text = input.data;
      if (!WHOLE_NUMBER.test(text)) {
        const tooLong = /^-?\d+$/.test(text);
        addIssueToContext(this._getOrReturnCtx(input), {
          code: ZodIssueCode.custom,
          message: tooLong ? `must be a whole number of at most ${MAX_QUERY_DIGITS} digits` : `must be a whole number, received ${quoteInput(text)}`,
        });
        return INVALID;
      }
      // As zod's own coercion does: the parse goes on with the converted value.
      input.data = Number(text);
    }
    return super._parse(input);
  }

  // zod's rules build a plain number schema again; these keep the query text read after `.min()` and the like.
  protected override setLimit(kind: 'min' | 'max', value: number, inclusive: boolean, message?: string): ZodNumber {
    return new QueryInteger(super.setLimit(kind, value, inclusive, message)._def);
  }

  override _addCheck(check: ZodNumberCheck): ZodNumber {
    return new QueryInteger(super._addCheck(check)._def);
  }
}

/** A query parameter holding a whole number from `min` to `max`. */
export function queryInteger(min: number, max: number): ZodNumber {
  return new QueryInteger(z.number()._def).int().min(min).max(max);
}

/**
 * A query parameter holding `true` or `false` (or a boolean, from a caller's own query object),
 * read as a boolean. Anything else is told what the parameter takes.
 */
export const queryBoolean = () =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])], {
      errorMap: (_issue, ctx) => ({ message: typeof ctx.data === 'string' ? `must be true or false, received ${quoteInput(ctx.data)}` : 'must be true or false' }),
    })
    .transform((value) => value === true || value === 'true');
