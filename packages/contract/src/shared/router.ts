import { AuthHeaders } from '../headers.js';
import { commonErrorResponses } from '../errors.js';

/**
 * Options shared by every `/v1` domain router: the prefix, both API keys on every route,
 * and the error responses every route can give.
 */
export const v1RouterOptions = {
  pathPrefix: '/v1',
  baseHeaders: AuthHeaders,
  commonResponses: commonErrorResponses,
  strictStatusCodes: true,
} as const;
