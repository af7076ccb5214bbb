/**
 * Where the upstream reference lives (`shared/reference/` beside the repository), and whether a
 * suite that needs it can run. Decided from the file system before any upstream file is read, so
 * a suite can skip cleanly on a bare clone: users clone the repository alone, CI has shared/ beside
 * it. `.ci/run` sets SWITCHYARD_REQUIRE_UPSTREAM=1 for its main run, where a missing reference is
 * an error rather than a skip.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = process.env.SWITCHYARD_SHARED_DIR ?? fileURLToPath(new URL('../../../shared', import.meta.url));
export const REFERENCE_DIR = `${SHARED_DIR}/reference`;

/** @returns {{ available: boolean, dir: string, reason: string }} */
export function upstreamReference() {
  const available = existsSync(`${REFERENCE_DIR}/openapi`);
  if (!available && process.env.SWITCHYARD_REQUIRE_UPSTREAM === '1') {
    throw new Error(`SWITCHYARD_REQUIRE_UPSTREAM=1 but the upstream reference is missing: ${REFERENCE_DIR}/openapi does not exist (set SWITCHYARD_SHARED_DIR to the folder holding reference/)`);
  }
  const reason = available ? '' : `the upstream reference is not beside this clone (${REFERENCE_DIR}/openapi not found; set SWITCHYARD_SHARED_DIR to use one elsewhere)`;
  return { available, dir: REFERENCE_DIR, reason };
}
