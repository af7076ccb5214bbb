import { sandboxContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { SandboxRoutes } from '../types/sandbox.js';

export type SandboxClient = DomainClient<SandboxRoutes>;

/** A client for the sandbox routes only: cheaper to type-check than the whole API. */
export function createSandboxClient(options: ClientOptions): SandboxClient {
  return domainClient<SandboxRoutes>(sandboxContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/sandbox.js';
export type * from '../types/shared.js';
