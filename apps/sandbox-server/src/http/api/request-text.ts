import type { RequestHandler } from 'express';
import { boundMessages, fieldLabel, MAX_ERROR_MESSAGES, type IssueLocation } from '@switchyard/contract';
import type { RouteMatcher } from './route-table.js';
import { validationProblem } from '../server/errors.js';
import { matchedRoute } from '../server/locals.js';

/**
 * U+0000 and unpaired surrogates: PostgreSQL's text and jsonb cannot hold them ("invalid byte
 * sequence for encoding UTF8: 0x00", "unsupported Unicode escape sequence"), so no store
 * takes them, and the memory store answers as PostgreSQL would (docs/sandbox.md, "Bad input").
 */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const isStorableText = (text: string) => !UNSTORABLE.test(text);

const unstorable = (location: IssueLocation, path: ReadonlyArray<string | number>) =>
  `${fieldLabel(location, path)}: contains U+0000 or an unpaired surrogate, which cannot be stored`;

interface Frame {
  value: unknown;
  key: string | number | undefined;
  parent: Frame | undefined;
}

function pathOf(frame: Frame): Array<string | number> {
  const path: Array<string | number> = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) path.unshift(f.key);
  return path;
}

/**
 * Every field of `value` (keys included) holding text no store can keep: `count` of them, and
 * messages naming the first few (paths are only built for those).
 */
export function unstorableFields(value: unknown, location: IssueLocation): { messages: string[]; count: number } {
  const messages: string[] = [];
  let count = 0;
  const report = (path: Array<string | number>) => {
    count += 1;
    if (messages.length <= MAX_ERROR_MESSAGES) messages.push(unstorable(location, path));
  };
  // Iterative: the body's nesting is bounded (json-body.ts), but the walk need not rely on it.
  // Only objects and arrays get a frame; strings are checked where they are found.
  const visit = (child: unknown, key: string | number, parent: Frame, stack: Frame[]) => {
    if (typeof child === 'string') {
      if (!isStorableText(child)) report([...pathOf(parent), key]);
    } else if (child !== null && typeof child === 'object') stack.push({ value: child, key, parent });
  };
  if (typeof value === 'string') {
    if (!isStorableText(value)) report([]);
    return { messages, count };
  }
  const stack: Frame[] = value !== null && typeof value === 'object' ? [{ value, key: undefined, parent: undefined }] : [];
  while (stack.length > 0) {
    const frame = stack.pop() as Frame;
    const v = frame.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i += 1) visit(v[i], i, frame, stack);
    } else {
      for (const key of Object.keys(v as object)) {
        if (isStorableText(key)) visit((v as Record<string, unknown>)[key], key, frame, stack);
        else report([...pathOf(frame), key.replace(new RegExp(UNSTORABLE.source, 'g'), '?')]);
      }
    }
  }
  return { messages, count };
}

/** Each path parameter of `route` in `path`, decoded; a parameter that is not valid percent-encoded UTF-8 is named in `bad`. */
export function decodePathParams(route: RouteMatcher, path: string): { params: Record<string, string>; bad: string[] } {
  const segments = path.split('/');
  const params: Record<string, string> = {};
  const bad: string[] = [];
  for (const { name, index } of route.params) {
    try {
      params[name] = decodeURIComponent(segments[index] ?? '');
    } catch {
      bad.push(`path.${name}: is not valid percent-encoded UTF-8`);
    }
  }
  return { params, bad };
}

/**
 * Runs after the body is read, before the contract validates the request: path parameters
 * that do not decode (Express would throw a URIError, a 500), and text no store can keep
 * anywhere in the path, the query or the body, answer 400 in the error shape, naming the field.
 */
export function requireStorableText(): RequestHandler {
  return (req, res, next) => {
    const { params, bad } = decodePathParams(matchedRoute(res), req.path);
    const found = [unstorableFields(params, 'path'), unstorableFields(req.query, 'query'), unstorableFields(req.body, 'body')];
    const count = bad.length + found.reduce((sum, f) => sum + f.count, 0);
    if (count > 0) {
      next(validationProblem(res, boundMessages([...bad, ...found.flatMap((f) => f.messages)], count)));
      return;
    }
    next();
  };
}
