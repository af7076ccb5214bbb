#!/usr/bin/env node
/**
 * Drives a burst of payments through the compose balancer, SIGKILLs one replica's container a
 * third of the way in, then proves what docs/deploy.md and docs/webhooks.md promise:
 *   - every payment acknowledged with a 201 is readable, SUCCEEDED, through the other replica;
 *   - every acknowledged payment's `payment.purchase` webhook reaches the receiver, signed over its
 *     exact bytes; a repeat (at least once) carries the same `data.idempotency_key`;
 *   - no webhook announces a payment the surviving replica cannot read;
 *   - no delivery ends `failed` (the inspector of the surviving replica).
 * Uses the repository's built client (`packages/client/dist`) and contract fixtures. Run by
 * compose-test.sh, which brings the compose file up and passes, in the environment:
 *   BALANCER_URL, SURVIVOR_URL   the balancer and the replica that stays up
 *   KILL_CONTAINER               the container id of the replica to SIGKILL
 *   RECEIVER_HOST                an address of this machine the containers reach (the network's gateway)
 * Exits 1 with one line per broken promise.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../..', import.meta.url));
const load = (path) => import(pathToFileURL(`${root}/${path}`).href);
const { createClient, parseWebhookEvent, ConnectionError, WEBHOOK_SIGNATURE_HEADER } = await load('packages/client/dist/index.js');
const { fixtures } = await load('packages/contract/dist/fixtures/index.js');

const env = (name) => process.env[name] || fail(`${name} is not set`);
const BALANCER_URL = env('BALANCER_URL');
const SURVIVOR_URL = env('SURVIVOR_URL');
const KILL_CONTAINER = env('KILL_CONTAINER');
const RECEIVER_HOST = env('RECEIVER_HOST');
const TOTAL = Number(process.env.BURST_PAYMENTS ?? 300);
const KILL_AFTER = Math.floor(TOTAL / 3);
const WORKERS = 8;
// Hang detectors, not speed goals: CI machines may be many times slower than a laptop.
const REQUEST_TIMEOUT_MS = 60_000;
const DELIVERY_WAIT_MS = 180_000;

function fail(message) {
  console.error(`compose-burst: ${message}`);
  process.exit(1);
}

// The webhook receiver: keeps every delivery's headers and exact bytes, answers 200.
const deliveries = [];
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    deliveries.push({ signature: req.headers[WEBHOOK_SIGNATURE_HEADER], raw: Buffer.concat(chunks) });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
await new Promise((resolve) => receiver.listen(0, RECEIVER_HOST, resolve));
const hookUrl = `http://${RECEIVER_HOST}:${receiver.address().port}/hooks`;

// A tenant of its own, made through the balancer like everything else.
const anonymous = createClient({ baseUrl: BALANCER_URL, publicApiKey: 'none', privateSecretKey: 'none' });
const merchant = await anonymous.sandbox.createMerchant({ body: { name: 'compose-burst' } });
const accountId = merchant.account_ids[0];
const keys = { publicApiKey: merchant.public_api_key, privateSecretKey: merchant.private_secret_key };
// No retries: a request counts as acknowledged only when its own first answer was a 201.
const viaBalancer = createClient({ ...keys, baseUrl: BALANCER_URL, maxRetries: 0, timeoutMs: REQUEST_TIMEOUT_MS });
const secret = `whsec-compose-burst-${Date.now()}`;
await viaBalancer.webhooks.create({ body: { ...fixtures.createWebhook(hookUrl), account_id: accountId, hmac_client_secret: secret, payment_triggers: ['PURCHASE'] } });

const acknowledged = [];
const outcomes = { before: new Map(), after: new Map() };
let sent = 0;
let killedAt;
let killing;
const count = (phase, outcome) => outcomes[phase].set(outcome, (outcomes[phase].get(outcome) ?? 0) + 1);

async function onePayment() {
  const session = await viaBalancer.checkout.raw.createSession({ body: { ...fixtures.createCheckoutSession(), account_id: accountId } });
  if (session.status !== 200 && session.status !== 201) return `session ${session.status}`;
  const payment = await viaBalancer.payments.raw.create({ body: { ...fixtures.createPayment(session.body.checkout_session), account_id: accountId } });
  if (payment.status === 201) acknowledged.push(payment.body.id);
  return String(payment.status);
}

async function worker() {
  while (sent < TOTAL) {
    sent += 1;
    if (sent === KILL_AFTER + 1) {
      killedAt = KILL_AFTER;
      killing = promisify(execFile)('docker', ['kill', '--signal', 'KILL', KILL_CONTAINER]);
    }
    const phase = killedAt === undefined ? 'before' : 'after';
    try {
      count(phase, await onePayment());
    } catch (error) {
      // A connection cut by the kill is an unacknowledged request; anything else is a broken test.
      if (!(error instanceof ConnectionError)) throw error;
      count(phase, error.name);
    }
  }
}

const started = Date.now();
await Promise.all(Array.from({ length: WORKERS }, worker));
await killing;
const burstSeconds = ((Date.now() - started) / 1000).toFixed(1);
const summary = (phase) => [...outcomes[phase]].map(([outcome, n]) => `${n}× ${outcome}`).join(', ');
console.log(`burst: ${TOTAL} payments through the balancer in ${burstSeconds} s; replica SIGKILLed after ${KILL_AFTER} were sent`);
console.log(`  sent before the kill: ${summary('before')}`);
console.log(`  sent after the kill:  ${summary('after')}`);
console.log(`  acknowledged (201): ${acknowledged.length}`);

const problems = [];
const afterKill = outcomes.after.get('201') ?? 0;
if (acknowledged.length < KILL_AFTER / 2) problems.push(`only ${acknowledged.length} payments were acknowledged: too few to prove anything`);
if (afterKill === 0) problems.push('no payment sent after the kill was acknowledged: the balancer did not fail over to the surviving replica');

// Every acknowledged write, read through the surviving replica alone.
const survivor = createClient({ ...keys, baseUrl: SURVIVOR_URL, timeoutMs: REQUEST_TIMEOUT_MS });
let readable = 0;
for (const id of acknowledged) {
  try {
    const payment = await survivor.payments.get({ params: { payment_id: id } });
    if (payment.status === 'SUCCEEDED' && payment.amount.captured === payment.amount.value) readable += 1;
    else problems.push(`payment ${id}: ${payment.status}, captured ${payment.amount.captured} of ${payment.amount.value}`);
  } catch (error) {
    problems.push(`acknowledged payment ${id} is not readable through the surviving replica: ${error.message}`);
  }
}
console.log(`read back through the surviving replica: ${readable} of ${acknowledged.length}`);

// Webhooks: at least once per acknowledged payment, each signed over its bytes.
const purchases = new Map();
const waitStart = Date.now();
const missing = () => acknowledged.filter((id) => !purchases.has(id));
let seen = 0;
while (Date.now() - waitStart < DELIVERY_WAIT_MS) {
  for (; seen < deliveries.length; seen += 1) {
    const { raw, signature } = deliveries[seen];
    let event;
    try {
      event = await parseWebhookEvent(raw, typeof signature === 'string' ? signature : undefined, secret);
    } catch (error) {
      problems.push(`delivery ${seen + 1}: ${error.message}`);
      continue;
    }
    if (event.type_event !== 'payment.purchase') continue;
    const id = event.data.payment.id;
    const keysOf = purchases.get(id) ?? new Set();
    keysOf.add(event.data.idempotency_key);
    purchases.set(id, keysOf);
  }
  if (missing().length === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 250));
}
const repeated = [...purchases.values()].filter((k) => k.size > 1).length;
console.log(
  `webhooks: ${deliveries.length} deliveries (repeats included), payment.purchase for ${purchases.size} payments, ${acknowledged.length - missing().length} of ${acknowledged.length} acknowledged within ${((Date.now() - waitStart) / 1000).toFixed(1)} s`,
);
for (const id of missing()) problems.push(`no payment.purchase webhook arrived for acknowledged payment ${id}`);
if (repeated > 0) problems.push(`${repeated} payments had repeats with another idempotency_key: a repeat must carry the first one's`);
// A payment in flight at the kill may have committed without its answer getting through: its
// webhook is right to come, but only for a payment that exists.
for (const id of purchases.keys()) {
  if (acknowledged.includes(id)) continue;
  try {
    await survivor.payments.get({ params: { payment_id: id } });
  } catch (error) {
    problems.push(`a webhook announced payment ${id}, which the surviving replica cannot read: ${error.message}`);
  }
}
const failed = await survivor.sandbox.listWebhookDeliveries({ query: { state: 'failed', limit: 1000 } });
if (failed.length > 0) problems.push(`${failed.length} webhook deliveries ended failed`);

receiver.close();
for (const problem of problems) console.error(`compose-burst: ${problem}`);
if (problems.length > 0) process.exit(1);
console.log('compose-burst: every acknowledged payment is readable through the surviving replica and its webhook was delivered, signed');
