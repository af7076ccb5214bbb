export * from './schemas.js';
export { sandboxContract } from './routes.js';
