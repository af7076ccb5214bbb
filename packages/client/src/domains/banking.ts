import { bankingContract } from '@switchyard/contract';
import { domainClient, transportArgs, type DomainClient } from '../client.js';
import type { ClientOptions } from '../options.js';

export type BankingClient = DomainClient<typeof bankingContract>;

/** A client for the banking routes only: cheaper to type-check than the whole API. */
export function createBankingClient(options: ClientOptions): BankingClient {
  return domainClient(bankingContract, transportArgs(options));
}

export * from '../errors.js';
export type { ClientOptions, CallOptions } from '../options.js';
