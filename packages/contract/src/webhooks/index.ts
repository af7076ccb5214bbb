export * from './schemas.js';
export * from './events.js';
export { webhooksContract } from './routes.js';
