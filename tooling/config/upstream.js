/**
 * Where the upstream reference lives (beside the repository), and whether a
 * suite that needs it can run. Decided from the file system before any upstream file is read, so
 * a suite can skip cleanly on a bare clone: users clone the repository alone, CI has it beside
 * the clone. `.ci/run` sets SWITCHYARD_REQUIRE_UPSTREAM=1 for its main run, where a missing reference is
 * an error rather than a skip.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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

/**
 * Follows `$ref`s local to one upstream document (upstream publishes one self-contained file per
 * operation) until a node that is not a reference.
 * @param {Record<string, unknown>} doc
 * @param {unknown} node
 * @returns {Record<string, unknown>}
 */
export function resolveRef(doc, node) {
  let current = /** @type {Record<string, unknown> | undefined} */ (node);
  while (current && typeof current.$ref === 'string') {
    current = /** @type {Record<string, unknown>} */ (
      current.$ref
        .replace(/^#\//, '')
        .split('/')
        .reduce((at, key) => /** @type {Record<string, unknown>} */ (at)[key.replace(/~1/g, '/').replace(/~0/g, '~')], /** @type {unknown} */ (doc))
    );
  }
  return current ?? {};
}

/**
 * Spec §1 convention 5: a field whose first word is the upstream brand is ours with `service` in
 * its place. Upstream names carry no other prefix, so the candidate is the name with its first
 * word replaced; callers accept it only when our contract declares it, so the brand word itself
 * never has to be written down.
 * @param {string} name
 * @returns {string | undefined}
 */
export function serviceNameFor(name) {
  if (!name.includes('_') || name.startsWith('service_')) return undefined;
  return `service_${name.slice(name.indexOf('_') + 1)}`;
}

/**
 * A digest of every file of the upstream reference ('absent' without one). Turbo hashes only the
 * repository's own files, so the root test command passes this in the environment of the tasks
 * that read the reference (turbo.json `env`): a changed reference then misses the cache instead of
 * replaying a result measured against the old files.
 * @returns {string}
 */
export function upstreamDigest() {
  if (!existsSync(REFERENCE_DIR)) return 'absent';
  const hash = createHash('sha256');
  /** @param {string} dir */
  const add = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) add(path);
      else hash.update(path.slice(REFERENCE_DIR.length)).update('\0').update(readFileSync(path));
    }
  };
  add(REFERENCE_DIR);
  return hash.digest('hex');
}
