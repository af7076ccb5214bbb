/**
 * The Node flags the repository runs the sandbox with. They are written once, in the root
 * `sandbox` script (what the README starts); the sandbox package's `start` script and the
 * container's entrypoint repeat them, and a test of the sandbox package holds the three together.
 * The bench starts every sandbox with them, so that it measures what a user runs.
 */
import { readFileSync } from 'node:fs';

/**
 * The flags `command` passes to `node`: the options between `node` and the file it runs, each
 * written `--name=value` (a flag whose value is a word of its own, such as `--import tsx`, would
 * be read as a file, so it is refused rather than misread). @param {string} command @returns {string[]}
 */
export function nodeFlagsOf(command) {
  const words = command.trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`"${command}" does not run node`);
  const flags = [];
  for (const word of words.slice(node + 1)) {
    if (!word.startsWith('-')) break;
    if (!/^--[\w-]+=\S+$/.test(word)) throw new Error(`"${command}": write each Node flag as --name=value, not "${word}"`);
    flags.push(word);
  }
  return flags;
}

/** The flags of the root `sandbox` script. @returns {string[]} */
export function sandboxNodeFlags() {
  const root = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return nodeFlagsOf(root.scripts.sandbox);
}
