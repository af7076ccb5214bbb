/**
 * The pieces of docs/fidelity.md, "Absent values", shared by the views that apply it: an object
 * the request did not send is left out of an answer, never `null`.
 */

/** `{ key: value }` when the value was sent, else nothing to spread: an object not sent is left out. */
export function ifSent<K extends string, V>(key: K, value: V | null | undefined): Partial<Record<K, V>> {
  return value === null || value === undefined ? {} : ({ [key]: value } as Partial<Record<K, V>>);
}

/** The record without `key`, its other keys in their order (fromEntries defines each as an own property, whatever its name). */
export const withoutKey = (record: Record<string, unknown>, key: string): Record<string, unknown> => Object.fromEntries(Object.entries(record).filter(([k]) => k !== key));

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
