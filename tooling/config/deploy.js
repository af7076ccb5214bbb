/**
 * `pnpm deploy --prod` of a workspace package into `dir`, outside the workspace: what `files`
 * publishes plus the production dependencies only, as a consumer installs it. The tests that
 * prove a package works standalone (sandbox-server's types, the conformance bundles) share it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A hang detector, not a speed goal: a deploy copies and links tens of MB, which a machine 5-20 times
 * slower than usual and busy with every package's tests can take minutes to do.
 */
const DEPLOY_TIMEOUT_MS = 600_000;

/** @param {string} name @param {string} dir @returns {Promise<string>} */
export function deployPackage(name, dir) {
  return new Promise((resolve, reject) =>
    execFile('npx', ['-y', 'pnpm@10', '--filter', name, 'deploy', '--prod', '--legacy', dir], { cwd: ROOT, timeout: DEPLOY_TIMEOUT_MS }, (error, _out, stderr) =>
      error ? reject(new Error(`pnpm deploy of ${name} failed: ${stderr}`)) : resolve(dir),
    ),
  );
}
