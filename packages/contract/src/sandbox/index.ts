export * from './schemas.js';
export { sandboxContract } from './routes.js';
export * from './journal.js';
export * from './snapshots.js';
