/**
 * How an upstream example becomes a request to our sandbox, in two steps, as an outside probe sends
 * it:
 * - `asPublished`: the example as upstream publishes it, with the ids of upstream's own resources
 *   (accounts, customers, sessions, tokens, recipients) swapped for real ones, whether the example
 *   names one of its own or a placeholder for it (`{{customer_id}}`, `<account_id>`): nobody can
 *   send upstream's ids to another account, so a probe always swaps them;
 * - `staleDataFixed`: on top, the data that no longer holds today: validity windows that lie in
 *   the past moved to start after the merchant's now, and a file `content` that stands in for a
 *   file (`base64_encoded_content`, an elided `...`) replaced by a real one.
 */
import { MINIMAL_PDF_BASE64 } from '@switchyard/contract/fixtures';
import type { Ids } from './prerequisites.js';
import type { Json } from './upstream.js';

/** Where an id sits in an example, by the key that holds it and the key of the object around it. */
function idFor(key: string, parent: string | undefined, ids: Ids): string | undefined {
  if (key === 'account_id') return ids.account_id;
  if (key === 'customer_id') return ids.customer_id;
  if (key === 'id' && parent === 'customer_payer') return ids.customer_id;
  if (key === 'session' && parent === 'checkout') return ids.checkout_session;
  if (key === 'vaulted_token') return ids.vaulted_token;
  if (key === 'recipient_id' && parent === 'split_marketplace') return ids.recipient_id;
  return undefined;
}

/**
 * Whether an example's value for an id is swapped for the real one: any id upstream names, and a
 * placeholder for it. An empty id is swapped only for `account_id`, which every request requires
 * and only the merchant can name; elsewhere upstream types the field a plain string and its
 * examples send `""` to mean "none" (a subscription payment's `vaulted_token`, a split line's
 * `recipient_id`), which is theirs to send.
 */
function isSwapped(key: string, value: string): boolean {
  return value !== '' || key === 'account_id';
}

function mapIds(node: unknown, ids: Ids, parent?: string): unknown {
  if (Array.isArray(node)) return node.map((item) => mapIds(item, ids, parent));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node as Json).map(([key, value]) => {
      const id = idFor(key, parent, ids);
      if (id !== undefined && typeof value === 'string' && isSwapped(key, value)) return [key, id];
      return [key, mapIds(value, ids, key)];
    }),
  );
}

/** Any remaining `{{name}}` or `<name>` string, filled by name where an id of that name exists. */
function fillNamedPlaceholders(node: unknown, ids: Ids): unknown {
  if (Array.isArray(node)) return node.map((item) => fillNamedPlaceholders(item, ids));
  if (typeof node === 'string') {
    const name = /^(?:\{\{(.+)\}\}|<(.+)>)$/.exec(node);
    const key = (name?.[1] ?? name?.[2])?.replace(/-/g, '_').replace(/^account_code$/, 'account_id') as keyof Ids | undefined;
    return key && ids[key] !== undefined ? ids[key] : node;
  }
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node as Json).map(([name, value]) => [name, fillNamedPlaceholders(value, ids)]));
}

/** A file's `content` that stands in for a file, replaced by a real (minimal PDF) file. */
function fillFileStandIns(node: unknown, key?: string): unknown {
  if (key === 'content' && typeof node === 'string' && !BASE64.test(node)) return MINIMAL_PDF_BASE64;
  if (Array.isArray(node)) return node.map((item) => fillFileStandIns(item));
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node as Json).map(([name, value]) => [name, fillFileStandIns(value, name)]));
}

/** Standard, padded base64: what a file's `content` is; anything else there stands in for a file. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const DAY_MS = 24 * 3600 * 1000;

/**
 * A window (`start_at`, optionally `finish_at`) that starts before the merchant's now is moved, both
 * ends by the same whole number of days, so that it starts within two days after now: upstream's
 * examples were written on a day that has passed. Any other date (a birth date, a document's issue date) keeps its meaning as is.
 */
function moveWindows(node: unknown, now: Date): unknown {
  if (Array.isArray(node)) return node.map((item) => moveWindows(item, now));
  if (!node || typeof node !== 'object') return node;
  const object = Object.fromEntries(Object.entries(node as Json).map(([key, value]) => [key, moveWindows(value, now)]));
  const start = typeof object.start_at === 'string' ? Date.parse(object.start_at) : Number.NaN;
  if (!Number.isNaN(start) && start < now.getTime()) {
    // Whole days keep the time of day upstream chose; one more day keeps the start in the future.
    const shift = (Math.ceil((now.getTime() - start) / DAY_MS) + 1) * DAY_MS;
    const moved = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(Date.parse(value) + shift).toISOString() : value);
    object.start_at = moved(object.start_at);
    if ('finish_at' in object) object.finish_at = moved(object.finish_at);
  }
  return object;
}

export function asPublished(example: unknown, ids: Ids): unknown {
  return fillNamedPlaceholders(mapIds(example, ids), ids);
}

export function staleDataFixed(example: unknown, ids: Ids, now: Date): unknown {
  return moveWindows(fillFileStandIns(asPublished(example, ids)), now);
}
