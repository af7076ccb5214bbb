/**
 * Type-check budget for consumers of the client (see docs/type-check-budget.md): a script calling
 * one route of every domain, checked strictly WITHOUT `skipLibCheck` (TypeScript's default), so
 * every declaration file it loads is checked too. Its program must never load the contract, zod
 * or ts-rest declarations: the client's public types are the generated route tables.
 * Needs `dist/` of the client and the contract (resolved through their package `exports`).
 */
import { fileURLToPath } from 'node:url';
import { runTypeBudget } from '@switchyard/tooling/type-budget';

process.exitCode = runTypeBudget(fileURLToPath(new URL('..', import.meta.url)), [
  {
    consumer: 'all-domains',
    description: 'createClient, one route of every domain, skipLibCheck false',
    maxInstantiations: 20_000,
    forbiddenFiles: ['/contract/dist/', '/zod/', '/@ts-rest/'],
  },
]);
