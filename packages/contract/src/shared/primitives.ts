import { z } from 'zod';

/** A string of `min` to `max` characters: the shape of almost every §8 limit. */
export const text = (min: number, max: number) => z.string().min(min).max(max);

/** UUIDs of exactly 36 characters (account ids, payment ids, transaction ids ...). */
export const Uuid = z.string().uuid();

/** Identifiers the spec gives as "string, 36 to 64" (account ids on some endpoints). */
export const Id36To64 = z.string().min(36).max(64);

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** `YYYY-MM-DD`, exactly 10 characters, and a real calendar date (no 2023-02-30). */
export const DateOnly = z
  .string()
  .length(10)
  .refine(isCalendarDate, { message: 'must be a date in the format YYYY-MM-DD' });

/** ISO 8601 date-time with a `Z` or an offset; fractional seconds allowed (upstream sends 6 digits). */
export const DateTime = z.string().datetime({ offset: true });

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 (RFC 4648 §4, padded). Empty content is not a file. */
export const Base64 = z
  .string()
  .min(4)
  .regex(BASE64_RE, 'must be base64-encoded (standard alphabet, padded)');

/** Free-form objects whose shape the spec leaves "not shown": accepted, passed through. */
export const OpenObject = z.record(z.string(), z.unknown());

/** A cross-field rule's failure, named by the field it is about (`superRefine` bodies use it). */
export function refuse(ctx: z.RefinementCtx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: z.ZodIssueCode.custom, path, message });
}
