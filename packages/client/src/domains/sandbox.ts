import { sandboxContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type SandboxClient = DomainClient<typeof sandboxContract>;

/** A client for the sandbox routes only: cheaper to type-check than the whole API. */
export function createSandboxClient(options: ClientOptions): SandboxClient {
  return domainClient(sandboxContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
