import type { RequestHandler } from 'express';
import { PUBLIC_KEY_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import { invalidCredentials } from '../../app/context.js';
import { DomainError } from '../../domain/errors.js';
import type { Store } from '../../store/types.js';
import { matchedRoute } from '../server/locals.js';
import { sendProblem } from '../server/problem-response.js';

/**
 * Resolves the merchant from the two API keys; 401 INVALID_CREDENTIALS when they are missing or
 * wrong (missing keys get the route's own code where its contract names one: webhooks' NOT_AUTHENTICATED). The store keeps only a digest of the secret key; the one given is digested the same way
 * and compared in constant time.
 */
export function authenticate(store: Store): RequestHandler {
  return async (req, res, next) => {
    try {
      const publicKey = req.header(PUBLIC_KEY_HEADER);
      const secretKey = req.header(SECRET_KEY_HEADER);
      if (!publicKey || !secretKey) {
        sendProblem(res, new DomainError(matchedRoute(res).meta.missingKeysCode ?? 'INVALID_CREDENTIALS', [`the ${PUBLIC_KEY_HEADER} and ${SECRET_KEY_HEADER} headers are required`]));
        return;
      }
      let merchant = await store.findMerchantByPublicKey(publicKey);
      // A kept record may predate a secret key rotated through another replica: a key it refuses
      // is tried on the merchant as the store has it now (which the store then keeps).
      if (merchant && !store.secretKeys.matches(merchant.secret_key_digest, secretKey)) merchant = await store.getMerchant(merchant.id);
      if (!merchant || !store.secretKeys.matches(merchant.secret_key_digest, secretKey)) {
        sendProblem(res, invalidCredentials());
        return;
      }
      res.locals.merchant = merchant;
      next();
    } catch (error) {
      next(error);
    }
  };
}
