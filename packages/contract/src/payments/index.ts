export * from './schemas.js';
export { paymentsContract } from './routes.js';
