import { bankingContract } from '@switchyard/contract';
import { domainClient, transportArgs } from '../client.js';
import type { ClientOptions } from '../options.js';
import type { DomainClient } from '../route-client.js';
import type { BankingRoutes } from '../types/banking.js';

export type BankingClient = DomainClient<BankingRoutes>;

/** A client for the banking routes only: cheaper to type-check than the whole API. */
export function createBankingClient(options: ClientOptions): BankingClient {
  return domainClient<BankingRoutes>(bankingContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
export type * from '../types/banking.js';
export type * from '../types/shared.js';
