export * from './schemas.js';
export { paymentMethodsContract } from './routes.js';
