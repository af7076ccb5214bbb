import { boundMessages, MAX_ERROR_MESSAGES, MAX_MESSAGE_LENGTH, STATUS_OF, type ApiError, type ErrorCode } from '@switchyard/contract';
import { DomainError } from './domain/errors.js';

/**
 * The largest error answer: its messages bounded (boundMessages), each character at worst a
 * six-byte JSON escape, plus the code and `http_code`. docs/sandbox.md, "Bad input".
 */
export const MAX_ERROR_BODY_BYTES = (MAX_ERROR_MESSAGES + 1) * (MAX_MESSAGE_LENGTH * 6 + 3) + 256;

/**
 * An error answer: a code, its messages and the HTTP status. A DomainError becomes one through
 * `problemOf`, with the status `STATUS_OF` gives its code. Only the HTTP layer names a status
 * itself, where a code's status is not the answer: headers too large (431), an unmet `Expect`
 * (417), and the status a fault rule asks for.
 */
export class ApiProblem extends DomainError {
  constructor(
    readonly status: number,
    code: ErrorCode,
    messages: string[],
  ) {
    super(code, messages);
    this.name = 'ApiProblem';
  }

  /**
   * The banking family carries the status in the body too (`http_code`). The messages are
   * bounded (boundMessages): no error answer grows with the input that caused it.
   */
  toBody(withHttpCode = false): ApiError {
    const messages = boundMessages(this.messages);
    return withHttpCode ? { code: this.code, messages, http_code: this.status } : { code: this.code, messages };
  }
}

/** The answer to a DomainError: the status of its code (`STATUS_OF`), or the one the HTTP layer gave it. */
export function problemOf(error: DomainError): ApiProblem {
  return error instanceof ApiProblem ? error : new ApiProblem(STATUS_OF[error.code], error.code, error.messages);
}
