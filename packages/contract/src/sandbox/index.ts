export * from './schemas.js';
export * from './inspector.js';
export { sandboxContract } from './routes.js';
