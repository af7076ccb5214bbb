/**
 * The inspector's browser script, served as `/inspector/inspector.js` (a plain ES module: no
 * bundler, no dependency, nothing from a CDN). Kept as a string so the sandbox's TypeScript build
 * ships it with no asset-copying step. It reads the API with the merchant's keys and builds the
 * page with createElement and textContent only (docs/inspector.md).
 */
export const INSPECTOR_SCRIPT = `
// The Switchyard inspector. Builds every node with createElement and textContent: no string of
// the merchant's ever goes through an HTML parser, so each one is escaped by construction.
const KEYS = 'switchyard.inspector.keys';
const POLL_MS = 2000;
const config = document.getElementById('config').dataset;
const LIMIT = Number(config.limit);
const MAX_ADVANCE = Number(config.maxAdvance);
const PAYER_OUTCOMES = config.payerOutcomes.split(',');
const byId = (id) => document.getElementById(id);

/** An element with attributes ('text' sets its text, 'on*' adds a listener) and children (strings become text). */
function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of [].concat(children === undefined ? [] : children)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

const text = (value) => (value === null || value === undefined || value === '' ? '—' : String(value));
const money = (amount) => (amount ? amount.value + ' ' + amount.currency : '—');

/** The keys live in sessionStorage only: never in the URL, a cookie or localStorage. */
function storedKeys() {
  try {
    const keys = JSON.parse(sessionStorage.getItem(KEYS) || 'null');
    return keys && typeof keys.publicKey === 'string' && typeof keys.secretKey === 'string' ? keys : null;
  } catch {
    return null;
  }
}

function say(message) {
  byId('status').textContent = message;
}
function fail(message) {
  byId('error').textContent = message;
}
const problemText = (r) => (r.json && r.json.code ? r.json.code + ': ' + [].concat(r.json.messages || []).join('; ') : 'HTTP ' + r.status);

/** One call of the sandbox's own API (same origin), the keys as its two headers. */
async function api(method, path, body) {
  const keys = storedKeys();
  if (!keys) throw new Error('not signed in');
  const headers = { 'public-api-key': keys.publicKey, 'private-secret-key': keys.secretKey };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store', redirect: 'error' });
  const raw = await response.text();
  let json = null;
  try {
    json = raw ? JSON.parse(raw) : null;
  } catch {
    json = null;
  }
  return { status: response.status, ok: response.ok, json };
}

// ---- rendering -------------------------------------------------------------------------------

function fields(pairs) {
  const dl = el('dl');
  for (const [label, value] of pairs) dl.append(el('dt', { text: label }), el('dd', { text: text(value) }));
  return dl;
}

const jsonBlock = (label, value) => el('details', {}, [el('summary', { text: label }), el('pre', { text: JSON.stringify(value, null, 2) })]);

/**
 * One record: a summary line that opens onto its details (keyboard: Tab to it, Enter or Space).
 * Each details and summary inside gets a key of its own, by which a re-render restores it.
 */
function item(kind, key, summary, body) {
  const id = kind + ':' + key;
  const node = el('details', { class: 'item' }, [el('summary', { text: summary.filter((s) => s !== null && s !== undefined && s !== '').join(' · ') })].concat(body));
  [node].concat([...node.querySelectorAll('details')]).forEach((d, i) => {
    d.dataset.key = id + ':' + i;
    d.querySelector('summary').dataset.key = id + ':' + i;
  });
  return node;
}

function button(label, key, onclick) {
  return el('button', { type: 'button', 'data-key': key, onclick, text: label });
}

/** Runs a control action, then refreshes; its error is shown, never thrown. */
async function act(description, method, path, body) {
  fail('');
  try {
    const r = await api(method, path, body);
    if (!r.ok) {
      fail(description + ' failed: ' + problemText(r));
      return;
    }
    say(description + ': done');
    await refresh(true);
  } catch (error) {
    fail(description + ' failed: ' + error.message);
  }
}

function eventsOf(id) {
  return (latest.events || []).filter((e) => e.resource_id === id);
}

function eventList(events) {
  if (events.length === 0) return el('p', { class: 'hint', text: 'No events among the newest shown.' });
  return el('ul', { class: 'lines' }, events.map((e) => el('li', { text: e.created_at + ' ' + e.type })));
}

function payment(p) {
  const detail = p.payment_method && p.payment_method.payment_method_detail;
  // The API's card is its brand, first digits and last four: there is no full number to show.
  const card = detail && detail.card && detail.card.card_data;
  const transactions = el(
    'ul',
    { class: 'lines' },
    (p.transactions || []).map((t) => el('li', { text: [t.created_at, t.type, t.status, t.amount + ' ' + p.amount.currency, t.response_code].join(' · ') })),
  );
  const body = [
    fields([
      ['Id', p.id],
      ['Merchant order id', p.merchant_order_id],
      ['Description', p.description],
      ['Status', p.status + ' / ' + p.sub_status],
      ['Amount', money(p.amount)],
      ['Captured', p.amount.captured],
      ['Refunded', p.amount.refunded],
      ['Method', p.payment_method && p.payment_method.type],
      ['Vaulted token', p.payment_method && p.payment_method.vaulted_token],
      ['Card', card ? [card.brand, card.iin + '…' + card.lfd].join(' ') : null],
      ['Created', p.created_at],
    ]),
    el('h3', { text: 'Transactions (refunds included)' }),
    transactions,
    el('h3', { text: 'Events' }),
    eventList(eventsOf(p.id)),
  ];
  if (p.status === 'PENDING') {
    body.push(el('p', { class: 'row' }, PAYER_OUTCOMES.map((o) => button('Payer: ' + o, 'payer:' + p.id + ':' + o, () => act('Payer outcome ' + o, 'POST', '/sandbox/payments/' + encodeURIComponent(p.id) + '/payer-outcome', { outcome: o })))));
  }
  body.push(jsonBlock('JSON', p));
  return item('payment', p.id, [p.status, money(p.amount), p.merchant_order_id, p.created_at], body);
}

function attempt(a) {
  return el('li', {}, [
    fields([
      ['Retry', a.retry],
      ['At', a.at],
      ['Answer', a.status_code === null ? 'no answer' : a.status_code],
      ['Error', a.error],
      ['Duration', a.duration_ms + ' ms'],
      ['Signature', a.signature],
    ]),
    el('p', { class: 'hint', text: 'Exact bytes sent:' }),
    el('pre', { class: 'bytes', text: a.request_body }),
  ]);
}

function delivery(d) {
  return item('delivery', d.id, [d.state, d.event_type, d.attempts.length + (d.attempts.length === 1 ? ' attempt' : ' attempts'), d.created_at], [
    fields([
      ['Id', d.id],
      ['Event', d.event_id],
      ['Webhook', d.webhook_id],
      ['URL', d.url],
      ['Idempotency key', d.idempotency_key],
      ['Next attempt', d.next_attempt_at],
    ]),
    el('p', {}, button('Redeliver', 'redeliver:' + d.id, () => act('Redeliver', 'POST', '/sandbox/webhook-deliveries/' + encodeURIComponent(d.id) + '/redeliver'))),
    el('h3', { text: 'Attempts' }),
    d.attempts.length === 0 ? el('p', { class: 'hint', text: 'No attempt yet.' }) : el('ol', { class: 'attempts' }, d.attempts.map(attempt)),
  ]);
}

const event = (e) => item('event', e.id, [e.type, e.resource_type + ' ' + e.resource_id, e.created_at], [jsonBlock('Data', e.data)]);

function journalEntry(r) {
  const fault = r.fault ? [r.fault.source, r.fault.rule_id, r.fault.effect].filter(Boolean).join(' ') : null;
  // Status 0: the connection closed before a whole response went out (docs/sandbox.md, Request journal).
  return item('request', r.id, [r.method + ' ' + r.path, r.status === 0 ? 'no answer' : r.status, r.duration_ms + ' ms', fault ? 'fault: ' + fault : null, r.at], [
    fields([
      ['Operation', r.operation_id],
      ['Request id', r.request_id],
      ['Idempotency key', r.idempotency_key],
      ['Replayed', r.replayed],
      ['Fault', fault],
    ]),
    jsonBlock('Request body', r.request_body),
    jsonBlock('Response body', r.response_body),
  ]);
}

function subscription(entry) {
  const s = entry.subscription;
  const cycles = s.billing_cycles;
  return item('subscription', s.id, [s.status, s.name, money(s.amount), 'cycle ' + cycles.current + ' of ' + (cycles.total === null ? '∞' : cycles.total)], [
    fields([
      ['Id', s.id],
      ['Next cycle at', cycles.next_at],
      ['Frequency', s.frequency.value + ' ' + s.frequency.type],
      ['Vaulted token', s.payment_method && s.payment_method.vaulted_token],
    ]),
    el('h3', { text: 'Cycle payments' }),
    entry.cycle_payments.length === 0
      ? el('p', { class: 'hint', text: 'No charge yet.' })
      : el('ul', { class: 'lines' }, entry.cycle_payments.map((c) => el('li', { text: [c.created_at, c.merchant_order_id, c.status, money(c.amount)].join(' · ') }))),
    jsonBlock('JSON', s),
  ]);
}

/** A record with no view of its own: a few summary fields, then its JSON. */
const plain = (kind, summaryOf) => (r) => item(kind, r.id, summaryOf(r), [jsonBlock('JSON', r)]);

const RENDERERS = {
  payments: payment,
  deliveries: delivery,
  events: event,
  journal: journalEntry,
  customers: plain('customer', (c) => [c.merchant_customer_id, [c.first_name, c.last_name].filter(Boolean).join(' '), c.email]),
  subscriptions: subscription,
  recipients: plain('recipient', (r) => [r.name || r.merchant_recipient_id, r.id]),
  transfers: plain('transfer', (t) => [t.status, money(t.amount), t.recipient_id]),
  banking_entities: plain('entity', (e) => [e.merchant_entity_id, e.id]),
  banking_onboardings: plain('onboarding', (o) => [o.status, o.id]),
  banking_accounts: plain('account', (a) => [a.account_type, a.status, a.id]),
};

/** The last answer for each section, as rendered: a section is rebuilt only when it changed. */
const rendered = {};
/** The latest data, for views that join sections (a payment lists its events). */
let latest = {};

/**
 * Replaces a section's items, keeping what the reader had open and where the keyboard focus was:
 * polling must not close a delivery being read or move focus off a button.
 */
function renderSection(id, list, bound) {
  const section = byId(id);
  const signature = JSON.stringify([list, bound, id === 'payments' ? latest.events : null]);
  if (rendered[id] === signature) return;
  rendered[id] = signature;
  const container = section.querySelector('.items');
  const open = new Set([...container.querySelectorAll('details[open]')].map((d) => d.dataset.key));
  const focused = container.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  section.querySelector('.bound').textContent = bound;
  const items = list === null ? [] : list.map(RENDERERS[id]);
  container.replaceChildren(...items);
  for (const d of container.querySelectorAll('details')) if (open.has(d.dataset.key)) d.open = true;
  if (focused) {
    const again = [...container.querySelectorAll('[data-key]')].find((n) => n.dataset.key === focused && n.matches('button, summary'));
    if (again) again.focus();
  }
}

const boundText = (shown, total) => (total > shown ? 'The newest ' + shown + ' of ' + total + ', newest first.' : shown === 0 ? 'None yet.' : 'All ' + shown + ', newest first.');
/** Events and deliveries are listed oldest first by the API, which keeps the newest 'limit'. */
const newestList = (r) => (r.ok && Array.isArray(r.json) ? r.json.slice().reverse() : []);
const listBound = (list) => (list.length < LIMIT ? boundText(list.length, list.length) : 'The newest ' + LIMIT + ', newest first; older ones are not shown.');

function renderAll(results) {
  const [clock, overview, events, deliveries, journal] = results;
  byId('clock').textContent = clock.json.now + ' (offset ' + clock.json.offset_seconds + ' s' + (clock.json.frozen ? ', frozen' : '') + ')';
  latest = { events: newestList(events) };
  renderSection('events', latest.events, listBound(latest.events));
  const deliveryList = newestList(deliveries);
  renderSection('deliveries', deliveryList, listBound(deliveryList));
  for (const kind of Object.keys(RENDERERS)) {
    const page = overview.json[kind];
    if (page) renderSection(kind, page.items, boundText(page.items.length, page.total));
  }
  if (journal.status === 404) renderSection('journal', null, 'Journal not available in this sandbox.');
  else if (!journal.ok) renderSection('journal', null, 'Journal not readable: ' + problemText(journal));
  else {
    // Listed oldest first like events, as an array or inside 'data'.
    const listed = Array.isArray(journal.json) ? journal.json : (journal.json && journal.json.data) || [];
    const entries = listed.slice().reverse();
    renderSection('journal', entries, listBound(entries));
  }
}

let inFlight = false;
/** An action asked for a refresh while one was under way: run another when it ends, to show the action's effect. */
let again = false;

/** Reads everything the page shows; 'force' runs even when polling is paused (after an action). */
async function refresh(force) {
  if (!storedKeys() || (!force && !byId('live').checked)) return;
  if (inFlight) {
    again = again || force;
    return;
  }
  inFlight = true;
  try {
    const q = '?limit=' + LIMIT;
    const results = await Promise.all([
      api('GET', '/sandbox/clock'),
      api('GET', '/sandbox/inspector/overview' + q),
      api('GET', '/sandbox/events' + q),
      api('GET', '/sandbox/webhook-deliveries' + q),
      api('GET', '/sandbox/requests' + q),
    ]);
    const refused = results.slice(0, 4).find((r) => !r.ok);
    if (refused && (refused.status === 401 || refused.status === 403)) {
      signOut();
      fail('The sandbox refused these keys: ' + problemText(refused));
      return;
    }
    if (refused) {
      fail('Cannot read the sandbox: ' + problemText(refused));
      return;
    }
    renderAll(results);
    byId('updated').textContent = 'Updated ' + new Date().toLocaleTimeString();
  } catch (error) {
    fail('Cannot reach the sandbox: ' + error.message);
  } finally {
    inFlight = false;
    if (again) {
      again = false;
      refresh(true);
    }
  }
}

// ---- signing in and out, controls --------------------------------------------------------------

function show(signedIn) {
  byId('signin').hidden = signedIn;
  byId('app').hidden = !signedIn;
}

function signOut() {
  sessionStorage.removeItem(KEYS);
  for (const id of Object.keys(RENDERERS)) {
    delete rendered[id];
    byId(id).querySelector('.items').replaceChildren();
  }
  byId('clock').textContent = '';
  show(false);
  say('Signed out.');
}

byId('signin-form').addEventListener('submit', async (e) => {
  // The form never submits: the keys must not leave this tab except as headers.
  e.preventDefault();
  fail('');
  sessionStorage.setItem(KEYS, JSON.stringify({ publicKey: byId('public-key').value.trim(), secretKey: byId('secret-key').value.trim() }));
  byId('public-key').value = '';
  byId('secret-key').value = '';
  show(true);
  say('Signed in.');
  await refresh(true);
});

byId('advance-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const seconds = Number(byId('advance-amount').value) * Number(byId('advance-unit').value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE) {
    fail('Advance by a whole number of seconds from 1 to ' + MAX_ADVANCE + '.');
    return;
  }
  act('Advance the clock by ' + seconds + ' s', 'POST', '/sandbox/clock/advance', { seconds });
});

byId('script-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const token = byId('script-token').value.trim();
  const sequence = byId('script-sequence').value.split(',').map((s) => s.trim()).filter(Boolean);
  act('Script outcomes', 'POST', '/sandbox/payment-methods/' + encodeURIComponent(token) + '/outcomes', { sequence });
});

byId('refresh').addEventListener('click', () => refresh(true));
byId('signout').addEventListener('click', signOut);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') refresh(false);
});
// Polling, not server-sent events: one timer, plain GETs the API already serves, nothing held open.
setInterval(() => {
  if (document.visibilityState === 'visible') refresh(false);
}, POLL_MS);

show(storedKeys() !== null);
if (storedKeys()) refresh(true);
`;
