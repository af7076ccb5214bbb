import { InputError } from './config.js';

/**
 * Fails fast, in one line, when `url` does not answer HTTP at all: otherwise every check would
 * end up skipped or failed for a reason that has nothing to do with the server's conformance.
 * Any response, whatever its status, counts as an answer.
 */
export async function probe(url: string, option: string, timeoutMs = 10_000): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InputError(`${option} ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new InputError(`${option} ${url} is not an http(s) URL`);
  try {
    const response = await fetch(parsed, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new InputError(`${option} ${url} does not answer: ${cause}`);
  }
}
