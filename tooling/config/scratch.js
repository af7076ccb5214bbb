/**
 * Temporary directories of a test file (a deployed package, a report, a caller's directory),
 * removed once the file is done: a test run must not leave them behind in the system's temporary
 * directory, where a deployed package alone is tens of MB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** @type {string[]} */
const made = [];

/** A new directory under the system's temporary one, removed by `removeScratchDirs`. @param {string} prefix @returns {string} */
export function scratchDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every directory `scratchDir` made in this process: a test file's `afterAll`. */
export function removeScratchDirs() {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
