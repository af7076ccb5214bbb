/**
 * Type-check budget for consumers of the contract (see docs/type-check-budget.md).
 * Needs `dist/` (the consumer files resolve `@switchyard/contract` to the built `.d.ts`).
 */
import { fileURLToPath } from 'node:url';
import { runTypeBudget } from '@switchyard/tooling/type-budget';

process.exitCode = runTypeBudget(fileURLToPath(new URL('..', import.meta.url)), [
  { consumer: 'whole', description: 'whole contract, one request and response per domain', maxInstantiations: 70_000 },
  { consumer: 'one-domain', description: 'one domain entry point (customers)', maxInstantiations: 35_000 },
]);
