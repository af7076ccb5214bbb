export * from './schemas.js';
export { customersContract } from './routes.js';
