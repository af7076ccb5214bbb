export * from './schemas.js';
export { webhooksContract } from './routes.js';
