import type { ErrorCode } from '@switchyard/contract';

/**
 * A rule the request broke, by its API error code. It names no HTTP status: the HTTP layer
 * answers with the one the contract's `STATUS_OF` gives the code.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly messages: string[],
  ) {
    super(`${code}: ${messages.join('; ')}`);
    this.name = 'DomainError';
  }
}
