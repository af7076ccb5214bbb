export * from './schemas.js';
export { marketplaceContract } from './routes.js';
