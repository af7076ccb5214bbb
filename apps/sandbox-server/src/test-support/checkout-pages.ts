import { beforeAll } from 'vitest';
import { fixtures } from '@switchyard/contract/fixtures';
import type { CreatePaymentLinkBody, PaymentLink } from '@switchyard/contract';
import type { PaymentLinkState } from '../domain/payment-links.js';
import { clientsFor, newMerchant, type RunningSandbox, type World } from './harness.js';

/** Where a link created by `link()` sends its buyer back. */
export const CALLBACK = 'https://shop.example/return?from=checkout';
/** A card that pays at once. */
export const APPROVE = '4111111111111111';
/** A card whose issuer asks the payer for a 3-D Secure challenge. */
export const CHALLENGE = '4916994064252017';

/** A form posted to a hosted page as a browser posts it, its redirect not followed. */
export function post(url: string, fields: Record<string, string>) {
  return fetch(url, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
}

/** The card form's fields for `number`, sent with the page's `attempt` key. */
export const card = (number: string, attempt: string) => ({ attempt, method: 'CARD', card_number: number, holder_name: 'ADA LOVELACE', expiry: '11/30', security_code: '123' });

/**
 * A fresh merchant on `sb` for the enclosing suite, made in a `beforeAll` registered after the
 * sandbox's own: filled in by the time the tests run.
 */
export function merchantOn(sb: RunningSandbox): World {
  const world = { sb } as World;
  beforeAll(async () => {
    world.merchant = await newMerchant(sb.url);
    world.clients = clientsFor(sb.url, world.merchant);
    world.accountId = world.merchant.account_ids[0] as string;
  });
  return world;
}

/** The hosted checkout of `w`'s merchant as a buyer's browser and the merchant's server see it. */
export function checkoutPages(w: World) {
  /** A payment link of the merchant (many payments, back to CALLBACK unless `extra` says otherwise). */
  async function link(extra: Partial<CreatePaymentLinkBody> = {}): Promise<PaymentLink> {
    const res = await w.clients.checkout.createPaymentLink({
      body: { ...fixtures.createPaymentLink(), account_id: w.accountId, availability: undefined, callback_url: CALLBACK, one_time_use: false, ...extra },
    });
    if (res.status !== 200) throw new Error(`link: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  /** A GET of a page (a path of the sandbox, or a whole URL), its redirect not followed. */
  const page = (path: string) => fetch(path.startsWith('http') ? path : `${w.sb.url}${path}`, { redirect: 'manual' });

  /** The attempt key of the page's card form (or of the form for `method`). */
  async function attemptOf(url: string, method = 'CARD'): Promise<string> {
    const html = await (await page(url)).text();
    const form = html.split('<form').find((f) => f.includes(`name="method" value="${method}"`));
    const key = form && /name="attempt" value="([^"]+)"/.exec(form)?.[1];
    if (!key) throw new Error(`no ${method} form on ${url}`);
    return key;
  }

  const payCard = async (url: string, number: string): Promise<Response> => post(url, card(number, await attemptOf(url)));

  const paymentOf = async (id: string) => {
    const res = await w.clients.payments.get({ params: { payment_id: id } });
    if (res.status !== 200) throw new Error(`payment ${id}: ${res.status}`);
    return res.body;
  };

  /** Where an answer redirects to, resolved against the sandbox. */
  const location = (res: Response) => new URL(res.headers.get('location') ?? '', w.sb.url);

  /** The link as the sandbox keeps it: no API route reads a link back (the spec has only its creation). */
  const storedLink = async (code: string) => (await w.sb.sandbox.store.locate<PaymentLinkState>('payment_link', code))?.data;

  return { link, page, attemptOf, payCard, paymentOf, location, storedLink };
}
