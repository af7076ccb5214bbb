export * from './schemas.js';
export { checkoutContract } from './routes.js';
