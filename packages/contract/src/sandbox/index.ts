export * from './schemas.js';
export * from './webhook-chaos.js';
export { sandboxContract } from './routes.js';
