import type { ZodError, ZodIssue } from 'zod';

/** Where a value was read from; prefixes the field path in messages. */
export type IssueLocation = 'body' | 'query' | 'path' | 'headers' | 'response';

/** `amount.value`, `evidence[0].content`: the field path as a reader writes it. */
export function formatIssuePath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((acc, part) => {
    if (typeof part === 'number') return `${acc}[${part}]`;
    return acc ? `${acc}.${part}` : part;
  }, '');
}

function describeIssue(issue: ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.received === 'undefined' ? 'is required' : `must be ${issue.expected}, received ${issue.received}`;
    case 'invalid_enum_value':
      return `must be one of ${issue.options.join(', ')}`;
    case 'unrecognized_keys':
      return `has unknown field(s) ${issue.keys.join(', ')}`;
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

/**
 * Turns zod issues into the API's `messages`: one line per issue, each naming the field,
 * for example `body.amount.value: must be a multiple of 0.0001 (at most 4 decimals)`.
 * zod's own wording and internals never reach the caller.
 */
export function describeIssues(error: ZodError | readonly ZodIssue[], location: IssueLocation): string[] {
  const issues = Array.isArray(error) ? (error as readonly ZodIssue[]) : (error as ZodError).issues;
  return issues.map((issue) => {
    const field = formatIssuePath(issue.path);
    const separator = field === '' || field.startsWith('[') ? '' : '.';
    return `${location}${separator}${field}: ${describeIssue(issue)}`;
  });
}
