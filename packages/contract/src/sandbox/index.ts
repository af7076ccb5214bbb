export * from './schemas.js';
export * from './faults.js';
export { sandboxContract } from './routes.js';
export * from './journal.js';
export * from './snapshots.js';
