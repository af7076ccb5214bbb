/**
 * Type-check budget for consumers of the contract. Instantiation counts are deterministic, so
 * they are the budget; wall-clock times are printed for the record only.
 * Needs `dist/` (the consumer files resolve `@switchyard/contract` to the built `.d.ts`).
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const BUDGETS = [
  { consumer: 'whole', description: 'whole contract, one request and response per domain', maxInstantiations: 70_000 },
  { consumer: 'one-domain', description: 'one domain entry point (customers)', maxInstantiations: 35_000 },
] as const;

let failed = false;
for (const budget of BUDGETS) {
  const configPath = fileURLToPath(new URL(`../type-budget/tsconfig.${budget.consumer}.json`, import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!config) throw new Error(`cannot read ${configPath}`);
  const started = performance.now();
  const program = ts.createProgram(config.fileNames, config.options);
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const ms = performance.now() - started;
  const instantiations = program.getInstantiationCount();
  const over = instantiations > budget.maxInstantiations;
  failed ||= over || diagnostics.length > 0;
  console.log(
    `${over ? 'OVER' : 'ok  '} ${budget.consumer.padEnd(11)} ${String(instantiations).padStart(7)} / ${budget.maxInstantiations} instantiations, ${ms.toFixed(0)} ms  (${budget.description})`,
  );
  for (const d of diagnostics) console.log(`  ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}
if (failed) process.exit(1);
