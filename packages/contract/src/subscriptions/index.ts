export * from './schemas.js';
export { subscriptionsContract } from './routes.js';
