/**
 * Tests that run a package's build (its CLI from dist/, its deployed copy) refuse a build that is
 * missing or older than the package's sources, rather than judge stale code. A source is any file
 * under src/ but tests and test-support/, which no build holds.
 *
 * Under turbo (which sets TURBO_HASH in every task) the check is skipped: there the test task
 * depends on the build, and turbo restores a cached build without rewriting the files whose size
 * and time already match its record, so a build can be current and older than a source that was
 * touched without being changed.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** @param {string} dir @returns {number} */
function newestSource(dir) {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test-support' ? 0 : newestSource(path);
      return entry.name.endsWith('.test.ts') ? 0 : statSync(path).mtimeMs;
    }),
  );
}

/**
 * Throws, naming `buildCommand`, when `builtFile` (relative to `packageDir`) is missing or older than
 * the newest source of the package; does nothing under turbo.
 * @param {string} packageDir @param {string} builtFile @param {string} buildCommand
 */
export function refuseStaleBuild(packageDir, builtFile, buildCommand) {
  if (process.env.TURBO_HASH) return;
  const built = join(packageDir, builtFile);
  let builtAt;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    throw new Error(`${built} is missing: build first (${buildCommand})`);
  }
  if (newestSource(join(packageDir, 'src')) > builtAt) throw new Error(`${builtFile} is older than src/: build first (${buildCommand})`);
}
