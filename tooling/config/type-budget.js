/**
 * Type-check budget runner: type-checks consumer files with `tsc --extendedDiagnostics`, as a
 * consumer's editor or CI would, and fails when one exceeds its instantiation budget or loads a
 * declaration file it must not. Instantiation counts are deterministic (the same source gives
 * the same count on any machine), so they are the budget; time and memory are printed for the
 * record and never asserted (they depend on the machine and its load).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/** @param {string} output @param {string} label */
function metric(output, label) {
  const match = new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(output);
  return match ? Number(match[1]) : Number.NaN;
}

/**
 * @param {string} packageDir the package whose `type-budget/tsconfig.<consumer>.json` files are checked
 * @param {readonly import('./type-budget.d.ts').TypeBudget[]} budgets
 * @returns {number} the exit code: 1 when a budget failed
 */
export function runTypeBudget(packageDir, budgets) {
  // The package's own TypeScript: the version its consumers are checked with.
  const tsc = createRequire(path.join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
  let failed = false;
  for (const budget of budgets) {
    const project = path.join(packageDir, 'type-budget', `tsconfig.${budget.consumer}.json`);
    const run = spawnSync(process.execPath, [tsc, '-p', project, '--extendedDiagnostics', '--listFiles'], { cwd: packageDir, encoding: 'utf8' });
    const output = `${run.stdout}${run.stderr}`;
    const instantiations = metric(output, 'Instantiations');
    const memoryMb = metric(output, 'Memory used') / 1024;
    const files = output.split('\n').filter((line) => path.isAbsolute(line.trim()));
    const forbidden = files.filter((file) => (budget.forbiddenFiles ?? []).some((pattern) => file.includes(pattern)));
    const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
    const over = !(instantiations <= budget.maxInstantiations);
    failed ||= over || forbidden.length > 0 || errors.length > 0 || run.status !== 0;
    console.log(
      `${over ? 'OVER' : 'ok  '} ${budget.consumer.padEnd(11)} ${String(instantiations).padStart(7)} / ${budget.maxInstantiations} instantiations, ` +
        `check ${metric(output, 'Check time').toFixed(2)} s, total ${metric(output, 'Total time').toFixed(2)} s, ${memoryMb.toFixed(0)} MB, ${files.length} files  (${budget.description})`,
    );
    for (const file of forbidden.slice(0, 5)) console.log(`  loads ${file}, which this consumer must not`);
    if (forbidden.length > 5) console.log(`  ... and ${forbidden.length - 5} more such files`);
    for (const line of errors) console.log(`  ${line}`);
  }
  return failed ? 1 : 0;
}
