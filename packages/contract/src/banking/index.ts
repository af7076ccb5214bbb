export * from './schemas.js';
export { bankingContract } from './routes.js';
