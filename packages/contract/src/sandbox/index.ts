export * from './schemas.js';
export * from './faults.js';
export * from './inspector.js';
export * from './webhook-chaos.js';
export { sandboxContract } from './routes.js';
export * from './journal.js';
export * from './snapshots.js';
