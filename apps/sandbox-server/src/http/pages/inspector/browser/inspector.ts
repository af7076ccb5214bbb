/**
 * The inspector's browser code, type-checked and linted with the sandbox's sources; the page
 * loads it, bundled (script-bundle.ts), as `/inspector/inspector.js`. It reads the API with the
 * merchant's keys and builds every node with createElement and textContent: no string of the
 * merchant's ever goes through an HTML parser, so each one is escaped by construction
 * (docs/inspector.md).
 */
import type { ApiError, InspectorOverview, JournalEntry, RetrievedPayment, SandboxClock, SandboxEvent, WebhookDelivery } from '@switchyard/contract';
import { formatDuration } from '../../../../runtime/duration-text.js';
import { formatAmount } from '../../money-text.js';

type Attempt = WebhookDelivery['attempts'][number];
type InspectorSubscription = InspectorOverview['subscriptions']['items'][number];
type SectionId = Exclude<keyof InspectorOverview, 'merchant' | 'limit'> | 'deliveries' | 'events' | 'journal';
interface Keys {
  publicKey: string;
  secretKey: string;
}
interface Answer<T> {
  status: number;
  ok: boolean;
  json: T | null;
}

const KEYS = 'switchyard.inspector.keys';
const POLL_MS = 2000;

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`the page has no #${id}`);
  return node as T;
}

const config = byId('config').dataset;
const LIMIT = Number(config.limit);
const MAX_ADVANCE = Number(config.maxAdvance);
const PAYER_OUTCOMES = (config.payerOutcomes ?? '').split(',');

type Child = Node | string | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

/** An element with attributes (`text` sets its text, `on*` adds a listener) and children (strings become text). */
function el(tag: string, attrs: Attributes = {}, children: Child | Child[] = []): HTMLElement {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'text') node.textContent = String(value);
    else if (typeof value === 'function') node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of ([] as Child[]).concat(children)) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

const text = (value: unknown): string => (value === null || value === undefined || value === '' ? '—' : String(value));
const money = (amount: { value: number; currency: string } | null | undefined): string => (amount ? formatAmount(amount.value, amount.currency) : '—');
/** A sandbox time as the reader's locale writes it, seconds included; the ISO form is the title. */
const when = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
};

/** The keys live in sessionStorage only: never in the URL, a cookie or localStorage. */
function storedKeys(): Keys | null {
  try {
    const keys = JSON.parse(sessionStorage.getItem(KEYS) ?? 'null') as Partial<Keys> | null;
    return keys && typeof keys.publicKey === 'string' && typeof keys.secretKey === 'string' ? { publicKey: keys.publicKey, secretKey: keys.secretKey } : null;
  } catch {
    return null;
  }
}

const say = (message: string) => {
  byId('status').textContent = message;
};
const fail = (message: string) => {
  byId('error').textContent = message;
};
const problemText = (r: Answer<unknown>): string => {
  const error = r.json as Partial<ApiError> | null;
  return error && typeof error.code === 'string' ? `${error.code}: ${([] as string[]).concat(error.messages ?? []).join('; ')}` : `HTTP ${r.status}`;
};

/** One call of the sandbox's own API (same origin), the keys as its two headers. */
async function api<T>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
  const keys = storedKeys();
  if (!keys) throw new Error('not signed in');
  const headers: Record<string, string> = { 'public-api-key': keys.publicKey, 'private-secret-key': keys.secretKey };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? null : JSON.stringify(body), credentials: 'omit', cache: 'no-store', redirect: 'error' });
  const raw = await response.text();
  let json: T | null = null;
  try {
    json = raw ? (JSON.parse(raw) as T) : null;
  } catch {
    json = null;
  }
  return { status: response.status, ok: response.ok, json };
}

// ---- rendering -------------------------------------------------------------------------------

function fields(pairs: [string, unknown][]): HTMLElement {
  const dl = el('dl');
  for (const [label, value] of pairs) dl.append(el('dt', { text: label }), el('dd', { text: text(value) }));
  return dl;
}

const jsonBlock = (label: string, value: unknown) => el('details', {}, [el('summary', { text: label }), el('pre', { text: JSON.stringify(value, null, 2) })]);

/**
 * One record: a summary line that opens onto its details (keyboard: Tab to it, Enter or Space).
 * Each details and summary inside gets a key of its own, by which a re-render restores it.
 */
function item(kind: string, key: string, summary: unknown[], body: Child[]): HTMLElement {
  const id = `${kind}:${key}`;
  const node = el('details', { class: 'item' }, [el('summary', { text: summary.filter((s) => s !== null && s !== undefined && s !== '').join(' · ') }), ...body]);
  [node, ...Array.from(node.querySelectorAll('details'))].forEach((d, i) => {
    d.dataset.key = `${id}:${i}`;
    const summaryNode = d.querySelector('summary');
    if (summaryNode) summaryNode.dataset.key = `${id}:${i}`;
  });
  return node;
}

const button = (label: string, key: string, onclick: () => void) => el('button', { type: 'button', 'data-key': key, onclick, text: label });

/** Runs a control action, then refreshes; its error is shown, never thrown. */
async function act(description: string, method: string, path: string, body?: unknown): Promise<void> {
  fail('');
  try {
    const r = await api(method, path, body);
    if (!r.ok) {
      fail(`${description} failed: ${problemText(r)}`);
      return;
    }
    say(`${description}: done`);
    await refresh(true);
  } catch (error) {
    fail(`${description} failed: ${(error as Error).message}`);
  }
}

/** The latest data, for views that join sections (a payment's timeline reads its events and their deliveries). */
let latest: { events: SandboxEvent[]; deliveries: WebhookDelivery[] } = { events: [], deliveries: [] };

interface Moment {
  at: string;
  kind: string;
  what: string;
}

/**
 * Everything that happened to a payment, oldest first: its transactions (refunds included), the
 * events it raised among the newest shown, and each attempt to deliver those events' webhooks.
 */
function timelineOf(p: RetrievedPayment): Moment[] {
  const events = latest.events.filter((e) => e.resource_id === p.id);
  const eventIds = new Set(events.map((e) => e.id));
  const moments: Moment[] = [
    ...(p.transactions ?? []).map((t) => ({ at: t.created_at, kind: 'Transaction', what: [t.type, t.status, money({ value: t.amount, currency: p.amount.currency }), t.response_code].join(' · ') })),
    ...events.map((e) => ({ at: e.created_at, kind: 'Event', what: e.type })),
    ...latest.deliveries
      .filter((d) => eventIds.has(d.event_id))
      .flatMap((d) =>
        d.attempts.map((a) => ({
          at: a.at,
          kind: 'Webhook',
          what: [d.event_type, `attempt ${a.retry + 1}`, a.status_code === null ? `no answer${a.error ? ` (${a.error})` : ''}` : `HTTP ${a.status_code}`, formatDuration(a.duration_ms)].join(' · '),
        })),
      ),
  ];
  return moments.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

function timeline(moments: Moment[]): HTMLElement {
  if (moments.length === 0) return el('p', { class: 'hint', text: 'Nothing yet among the newest shown.' });
  return el(
    'ol',
    { class: 'timeline' },
    moments.map((m) => el('li', {}, [el('time', { datetime: m.at, title: m.at, text: when(m.at) }), ' ', el('span', { class: 'kind', text: m.kind }), m.what])),
  );
}

function payment(p: RetrievedPayment): HTMLElement {
  const detail = p.payment_method.payment_method_detail;
  // The API's card is its brand, first digits and last four: there is no full number to show.
  const card = detail?.card?.card_data;
  const body: Child[] = [
    fields([
      ['Id', p.id],
      ['Merchant order id', p.merchant_order_id],
      ['Description', p.description],
      ['Status', `${p.status} / ${p.sub_status}`],
      ['Amount', money(p.amount)],
      ['Captured', money({ value: p.amount.captured, currency: p.amount.currency })],
      ['Refunded', money({ value: p.amount.refunded, currency: p.amount.currency })],
      ['Method', p.payment_method.type],
      ['Vaulted token', p.payment_method.vaulted_token],
      ['Card', card ? `${card.brand ?? ''} ${card.iin ?? ''}…${card.lfd ?? ''}`.trim() : null],
      ['Created', when(p.created_at)],
    ]),
    el('h3', { text: 'Timeline: transactions, events and webhook attempts' }),
    timeline(timelineOf(p)),
  ];
  if (p.status === 'PENDING') {
    body.push(el('p', { class: 'row' }, PAYER_OUTCOMES.map((o) => button(`Payer: ${o}`, `payer:${p.id}:${o}`, () => void act(`Payer outcome ${o}`, 'POST', `/sandbox/payments/${encodeURIComponent(p.id)}/payer-outcome`, { outcome: o })))));
  }
  body.push(jsonBlock('JSON', p));
  return item('payment', p.id, [p.status, money(p.amount), p.merchant_order_id, when(p.created_at)], body);
}

function attempt(a: Attempt): HTMLElement {
  return el('li', {}, [
    fields([
      ['Retry', a.retry],
      ['At', when(a.at)],
      ['Answer', a.status_code === null ? 'no answer' : a.status_code],
      ['Error', a.error],
      ['Duration', formatDuration(a.duration_ms)],
      ['Signature', a.signature],
    ]),
    el('p', { class: 'hint', text: 'Exact bytes sent:' }),
    el('pre', { class: 'bytes', text: a.request_body }),
  ]);
}

function delivery(d: WebhookDelivery): HTMLElement {
  return item('delivery', d.id, [d.state, d.event_type, `${d.attempts.length} ${d.attempts.length === 1 ? 'attempt' : 'attempts'}`, when(d.created_at)], [
    fields([
      ['Id', d.id],
      ['Event', d.event_id],
      ['Webhook', d.webhook_id],
      ['URL', d.url],
      ['Idempotency key', d.idempotency_key],
      ['Next attempt', d.next_attempt_at === null ? null : when(d.next_attempt_at)],
    ]),
    el('p', {}, button('Redeliver', `redeliver:${d.id}`, () => void act('Redeliver', 'POST', `/sandbox/webhook-deliveries/${encodeURIComponent(d.id)}/redeliver`))),
    el('h3', { text: 'Attempts' }),
    d.attempts.length === 0 ? el('p', { class: 'hint', text: 'No attempt yet.' }) : el('ol', { class: 'attempts' }, d.attempts.map(attempt)),
  ]);
}

const event = (e: SandboxEvent) => item('event', e.id, [e.type, `${e.resource_type} ${e.resource_id}`, when(e.created_at)], [jsonBlock('Data', e.data)]);

function journalEntry(r: JournalEntry): HTMLElement {
  const fault = r.fault ? [r.fault.source, r.fault.rule_id, r.fault.effect].filter(Boolean).join(' ') : null;
  // Status 0: the connection closed before a whole response went out (docs/sandbox-testing.md, "Request journal").
  return item('request', r.id, [`${r.method} ${r.path}`, r.status === 0 ? 'no answer' : r.status, formatDuration(r.duration_ms), fault ? `fault: ${fault}` : null, when(r.at)], [
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

function subscription(entry: InspectorSubscription): HTMLElement {
  const s = entry.subscription;
  const cycles = s.billing_cycles;
  return item('subscription', s.id, [s.status, s.name, money(s.amount), `cycle ${cycles.current} of ${cycles.total === null ? '∞' : cycles.total}`], [
    fields([
      ['Id', s.id],
      ['Next cycle at', cycles.next_at === null ? null : when(cycles.next_at)],
      ['Frequency', `${s.frequency.value} ${s.frequency.type}`],
      ['Vaulted token', s.payment_method?.vaulted_token],
    ]),
    el('h3', { text: 'Cycle payments' }),
    entry.cycle_payments.length === 0
      ? el('p', { class: 'hint', text: 'No charge yet.' })
      : el('ul', { class: 'lines' }, entry.cycle_payments.map((c) => el('li', { text: [when(c.created_at), c.merchant_order_id, c.status, money(c.amount)].join(' · ') }))),
    jsonBlock('JSON', s),
  ]);
}

/** A record with no view of its own: a few summary fields, then its JSON. */
const plain =
  <T extends { id: string }>(kind: string, summaryOf: (record: T) => unknown[]) =>
  (r: T) =>
    item(kind, r.id, summaryOf(r), [jsonBlock('JSON', r)]);

type Listed = { [K in SectionId]: K extends keyof InspectorOverview ? InspectorOverview[K] extends { items: (infer I)[] } ? I : never : K extends 'deliveries' ? WebhookDelivery : K extends 'events' ? SandboxEvent : JournalEntry };
const RENDERERS: { [K in SectionId]: (record: Listed[K]) => HTMLElement } = {
  payments: payment,
  deliveries: delivery,
  events: event,
  journal: journalEntry,
  customers: plain('customer', (c) => [c.merchant_customer_id, [c.first_name, c.last_name].filter(Boolean).join(' '), c.email]),
  subscriptions: subscription,
  recipients: plain('recipient', (r) => [r.legal_name || [r.first_name, r.last_name].filter(Boolean).join(' ') || r.merchant_recipient_id, r.id]),
  transfers: plain('transfer', (t) => [t.status, money(t.amount), t.recipient_id]),
  banking_entities: plain('entity', (e) => [e.merchant_entity_id, e.id]),
  banking_onboardings: plain('onboarding', (o) => [o.status, o.id]),
  banking_accounts: plain('account', (a) => [a.account_type, a.status, a.id]),
};
const SECTION_IDS = Object.keys(RENDERERS) as SectionId[];

/** The last answer for each section, as rendered: a section is rebuilt only when it changed. */
const rendered: Partial<Record<SectionId, string>> = {};

/**
 * Replaces a section's items, keeping what the reader had open and where the keyboard focus was:
 * polling must not close a delivery being read or move focus off a button.
 */
function renderSection<K extends SectionId>(id: K, list: Listed[K][] | null, bound: string): void {
  const section = byId(id);
  // A payment's timeline joins the events and deliveries: it changes when they do.
  const signature = JSON.stringify([list, bound, id === 'payments' ? latest : null]);
  if (rendered[id] === signature) return;
  rendered[id] = signature;
  const container = section.querySelector<HTMLElement>('.items');
  const boundNode = section.querySelector<HTMLElement>('.bound');
  if (!container || !boundNode) return;
  const open = new Set(Array.from(container.querySelectorAll<HTMLDetailsElement>('details[open]'), (d) => d.dataset.key));
  const active = document.activeElement instanceof HTMLElement && container.contains(document.activeElement) ? document.activeElement.dataset.key : undefined;
  boundNode.textContent = bound;
  container.replaceChildren(...(list ?? []).map((record) => RENDERERS[id](record)));
  for (const d of Array.from(container.querySelectorAll<HTMLDetailsElement>('details'))) if (open.has(d.dataset.key)) d.open = true;
  if (active) {
    const again = Array.from(container.querySelectorAll<HTMLElement>('[data-key]')).find((n) => n.dataset.key === active && n.matches('button, summary'));
    again?.focus();
  }
}

const boundText = (shown: number, total: number) => (total > shown ? `The newest ${shown} of ${total}, newest first.` : shown === 0 ? 'None yet.' : `All ${shown}, newest first.`);
/** Events and deliveries are listed oldest first by the API, which keeps the newest `limit`. */
const newestList = <T>(r: Answer<T[]>): T[] => (r.ok && Array.isArray(r.json) ? r.json.slice().reverse() : []);
const listBound = (list: unknown[]) => (list.length < LIMIT ? boundText(list.length, list.length) : `The newest ${LIMIT}, newest first; older ones are not shown.`);

function renderAll(clock: SandboxClock, overview: InspectorOverview, events: Answer<SandboxEvent[]>, deliveries: Answer<WebhookDelivery[]>, journal: Answer<JournalEntry[] | { data: JournalEntry[] }>): void {
  const merchant = overview.merchant;
  byId('merchant').textContent = `${merchant.name} (${merchant.id}; accounts ${merchant.account_ids.join(', ')})`;
  byId('clock').textContent = `${when(clock.now)} (offset ${clock.offset_seconds} s${clock.frozen ? ', frozen' : ''})`;
  latest = { events: newestList(events), deliveries: newestList(deliveries) };
  renderSection('events', latest.events, listBound(latest.events));
  renderSection('deliveries', latest.deliveries, listBound(latest.deliveries));
  renderSection('payments', overview.payments.items, boundText(overview.payments.items.length, overview.payments.total));
  renderSection('customers', overview.customers.items, boundText(overview.customers.items.length, overview.customers.total));
  renderSection('subscriptions', overview.subscriptions.items, boundText(overview.subscriptions.items.length, overview.subscriptions.total));
  renderSection('recipients', overview.recipients.items, boundText(overview.recipients.items.length, overview.recipients.total));
  renderSection('transfers', overview.transfers.items, boundText(overview.transfers.items.length, overview.transfers.total));
  renderSection('banking_entities', overview.banking_entities.items, boundText(overview.banking_entities.items.length, overview.banking_entities.total));
  renderSection('banking_onboardings', overview.banking_onboardings.items, boundText(overview.banking_onboardings.items.length, overview.banking_onboardings.total));
  renderSection('banking_accounts', overview.banking_accounts.items, boundText(overview.banking_accounts.items.length, overview.banking_accounts.total));
  if (journal.status === 404) renderSection('journal', null, 'Journal not available in this sandbox.');
  else if (!journal.ok) renderSection('journal', null, `Journal not readable: ${problemText(journal)}`);
  else {
    // Listed oldest first like events, as an array or inside `data`.
    const listed = Array.isArray(journal.json) ? journal.json : (journal.json?.data ?? []);
    const entries = listed.slice().reverse();
    renderSection('journal', entries, listBound(entries));
  }
}

let inFlight = false;
/** An action asked for a refresh while one was under way: run another when it ends, to show the action's effect. */
let again = false;

/** Reads everything the page shows; `force` runs even when polling is paused (after an action). */
async function refresh(force: boolean): Promise<void> {
  if (!storedKeys() || (!force && !byId<HTMLInputElement>('live').checked)) return;
  if (inFlight) {
    again = again || force;
    return;
  }
  inFlight = true;
  try {
    const q = `?limit=${LIMIT}`;
    const [clock, overview, events, deliveries, journal] = await Promise.all([
      api<SandboxClock>('GET', '/sandbox/clock'),
      api<InspectorOverview>('GET', `/sandbox/inspector/overview${q}`),
      api<SandboxEvent[]>('GET', `/sandbox/events${q}`),
      api<WebhookDelivery[]>('GET', `/sandbox/webhook-deliveries${q}`),
      api<JournalEntry[] | { data: JournalEntry[] }>('GET', `/sandbox/requests${q}`),
    ]);
    const refused = [clock, overview, events, deliveries].find((r) => !r.ok);
    if (refused && (refused.status === 401 || refused.status === 403)) {
      signOut();
      fail(`The sandbox refused these keys: ${problemText(refused)}`);
      return;
    }
    if (refused || !clock.json || !overview.json) {
      fail(`Cannot read the sandbox: ${refused ? problemText(refused) : 'an empty answer'}`);
      return;
    }
    renderAll(clock.json, overview.json, events, deliveries, journal);
    byId('updated').textContent = `Updated ${new Date().toLocaleTimeString()}`;
  } catch (error) {
    fail(`Cannot reach the sandbox: ${(error as Error).message}`);
  } finally {
    inFlight = false;
    if (again) {
      again = false;
      void refresh(true);
    }
  }
}

// ---- signing in and out, controls --------------------------------------------------------------

function show(signedIn: boolean): void {
  byId('signin').hidden = signedIn;
  byId('app').hidden = !signedIn;
}

function signOut(): void {
  sessionStorage.removeItem(KEYS);
  for (const id of SECTION_IDS) {
    delete rendered[id];
    byId(id).querySelector('.items')?.replaceChildren();
  }
  byId('clock').textContent = '';
  byId('merchant').textContent = '';
  show(false);
  say('Signed out.');
}

byId('signin-form').addEventListener('submit', (e) => {
  // The form never submits: the keys must not leave this tab except as headers.
  e.preventDefault();
  fail('');
  const publicKey = byId<HTMLInputElement>('public-key');
  const secretKey = byId<HTMLInputElement>('secret-key');
  sessionStorage.setItem(KEYS, JSON.stringify({ publicKey: publicKey.value.trim(), secretKey: secretKey.value.trim() }));
  publicKey.value = '';
  secretKey.value = '';
  show(true);
  say('Signed in.');
  void refresh(true);
});

byId('advance-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const seconds = Number(byId<HTMLInputElement>('advance-amount').value) * Number(byId<HTMLSelectElement>('advance-unit').value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE) {
    fail(`Advance by a whole number of seconds from 1 to ${MAX_ADVANCE}.`);
    return;
  }
  void act(`Advance the clock by ${seconds} s`, 'POST', '/sandbox/clock/advance', { seconds });
});

byId('script-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const token = byId<HTMLInputElement>('script-token').value.trim();
  const sequence = byId<HTMLInputElement>('script-sequence')
    .value.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  void act('Script outcomes', 'POST', `/sandbox/payment-methods/${encodeURIComponent(token)}/outcomes`, { sequence });
});

byId('refresh').addEventListener('click', () => void refresh(true));
byId('signout').addEventListener('click', signOut);
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void refresh(false);
});
// Polling, not server-sent events: one timer, plain GETs the API already serves, nothing held open.
setInterval(() => {
  if (document.visibilityState === 'visible') void refresh(false);
}, POLL_MS);

show(storedKeys() !== null);
if (storedKeys()) void refresh(true);
