/** A random UUID v4 from the platform's Web Crypto (Node 20+, Bun, Deno, browsers, edge runtimes). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
