export * from './schemas.js';
export * from './alternative-methods.js';
export { paymentsContract } from './routes.js';
