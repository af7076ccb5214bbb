import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { PUBLIC_KEY_HEADER, SECRET_KEY_HEADER } from '@switchyard/contract';
import type { Store } from '../store/types.js';
import { problem, sendProblem } from './problem-response.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Digests of stored secrets, computed once per secret rather than once per request. */
const storedDigests = new Map<string, Buffer>();
const MAX_CACHED_DIGESTS = 10_000;

function storedDigest(secret: string): Buffer {
  let d = storedDigests.get(secret);
  if (!d) {
    if (storedDigests.size >= MAX_CACHED_DIGESTS) storedDigests.clear();
    d = digest(secret);
    storedDigests.set(secret, d);
  }
  return d;
}

/** Compares a given secret with a stored one in constant time (hashing first makes the lengths equal). */
export function secretsEqual(stored: string, given: string): boolean {
  return timingSafeEqual(storedDigest(stored), digest(given));
}

/** Resolves the merchant from the two API keys; 401 INVALID_CREDENTIALS when they are missing or wrong. */
export function authenticate(store: Store): RequestHandler {
  return async (req, res, next) => {
    try {
      const publicKey = req.header(PUBLIC_KEY_HEADER);
      const secretKey = req.header(SECRET_KEY_HEADER);
      if (!publicKey || !secretKey) {
        sendProblem(res, problem(401, 'INVALID_CREDENTIALS', `the ${PUBLIC_KEY_HEADER} and ${SECRET_KEY_HEADER} headers are required`));
        return;
      }
      const merchant = await store.findMerchantByPublicKey(publicKey);
      if (!merchant || !secretsEqual(merchant.private_secret_key, secretKey)) {
        sendProblem(res, problem(401, 'INVALID_CREDENTIALS', 'invalid API credentials'));
        return;
      }
      res.locals.merchant = merchant;
      next();
    } catch (error) {
      next(error);
    }
  };
}
