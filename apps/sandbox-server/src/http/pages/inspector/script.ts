// Generated from browser/inspector.ts by `pnpm --filter @switchyard/sandbox-server inspector-script`; do not edit.
/** The inspector's browser script, served as `/inspector/inspector.js` (script-bundle.ts). */
export const INSPECTOR_SCRIPT = `// src/runtime/duration-text.ts
function formatDuration(ms) {
  if (ms < 10) return \`\${(Math.round(ms * 10) / 10).toFixed(1)} ms\`;
  if (ms < 1e3) return \`\${Math.round(ms)} ms\`;
  return \`\${(ms / 1e3).toFixed(1)} s\`;
}

// src/http/pages/money-text.ts
function formatAmount(value, currency) {
  try {
    const usual = new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    const decimals = (/\\.(\\d+)$/.exec(String(value))?.[1] ?? "").length;
    return new Intl.NumberFormat("en-US", { style: "currency", currency, currencyDisplay: "code", minimumFractionDigits: usual, maximumFractionDigits: Math.max(usual, decimals) }).format(value);
  } catch {
    return \`\${value} \${currency}\`;
  }
}

// src/http/pages/inspector/browser/inspector.ts
var KEYS = "switchyard.inspector.keys";
var POLL_MS = 2e3;
function byId(id) {
  const node = document.getElementById(id);
  if (!node) throw new Error(\`the page has no #\${id}\`);
  return node;
}
var config = byId("config").dataset;
var LIMIT = Number(config.limit);
var MAX_ADVANCE = Number(config.maxAdvance);
var PAYER_OUTCOMES = (config.payerOutcomes ?? "").split(",");
function el(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === void 0 || value === null || value === false) continue;
    if (name === "text") node.textContent = String(value);
    else if (typeof value === "function") node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of [].concat(children)) {
    if (child !== null && child !== void 0 && child !== false) node.append(child);
  }
  return node;
}
var text = (value) => value === null || value === void 0 || value === "" ? "—" : String(value);
var money = (amount) => amount ? formatAmount(amount.value, amount.currency) : "—";
var when = (iso) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(void 0, { dateStyle: "medium", timeStyle: "medium" });
};
function storedKeys() {
  try {
    const keys = JSON.parse(sessionStorage.getItem(KEYS) ?? "null");
    return keys && typeof keys.publicKey === "string" && typeof keys.secretKey === "string" ? { publicKey: keys.publicKey, secretKey: keys.secretKey } : null;
  } catch {
    return null;
  }
}
var say = (message) => {
  byId("status").textContent = message;
};
var fail = (message) => {
  byId("error").textContent = message;
};
var problemText = (r) => {
  const error = r.json;
  return error && typeof error.code === "string" ? \`\${error.code}: \${[].concat(error.messages ?? []).join("; ")}\` : \`HTTP \${r.status}\`;
};
async function api(method, path, body) {
  const keys = storedKeys();
  if (!keys) throw new Error("not signed in");
  const headers = { "public-api-key": keys.publicKey, "private-secret-key": keys.secretKey };
  if (body !== void 0) headers["content-type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === void 0 ? null : JSON.stringify(body), credentials: "omit", cache: "no-store", redirect: "error" });
  const raw = await response.text();
  let json = null;
  try {
    json = raw ? JSON.parse(raw) : null;
  } catch {
    json = null;
  }
  return { status: response.status, ok: response.ok, json };
}
function fields(pairs) {
  const dl = el("dl");
  for (const [label, value] of pairs) dl.append(el("dt", { text: label }), el("dd", { text: text(value) }));
  return dl;
}
var jsonBlock = (label, value) => el("details", {}, [el("summary", { text: label }), el("pre", { text: JSON.stringify(value, null, 2) })]);
function item(kind, key, summary, body) {
  const id = \`\${kind}:\${key}\`;
  const node = el("details", { class: "item" }, [el("summary", { text: summary.filter((s) => s !== null && s !== void 0 && s !== "").join(" · ") }), ...body]);
  [node, ...Array.from(node.querySelectorAll("details"))].forEach((d, i) => {
    d.dataset.key = \`\${id}:\${i}\`;
    const summaryNode = d.querySelector("summary");
    if (summaryNode) summaryNode.dataset.key = \`\${id}:\${i}\`;
  });
  return node;
}
var button = (label, key, onclick) => el("button", { type: "button", "data-key": key, onclick, text: label });
async function act(description, method, path, body) {
  fail("");
  try {
    const r = await api(method, path, body);
    if (!r.ok) {
      fail(\`\${description} failed: \${problemText(r)}\`);
      return;
    }
    say(\`\${description}: done\`);
    await refresh(true);
  } catch (error) {
    fail(\`\${description} failed: \${error.message}\`);
  }
}
var latest = { events: [], deliveries: [] };
function timelineOf(p) {
  const events = latest.events.filter((e) => e.resource_id === p.id);
  const eventIds = new Set(events.map((e) => e.id));
  const moments = [
    ...(p.transactions ?? []).map((t) => ({ at: t.created_at, kind: "Transaction", what: [t.type, t.status, money({ value: t.amount, currency: p.amount.currency }), t.response_code].join(" · ") })),
    ...events.map((e) => ({ at: e.created_at, kind: "Event", what: e.type })),
    ...latest.deliveries.filter((d) => eventIds.has(d.event_id)).flatMap(
      (d) => d.attempts.map((a) => ({
        at: a.at,
        kind: "Webhook",
        what: [d.event_type, \`attempt \${a.retry + 1}\`, a.status_code === null ? \`no answer\${a.error ? \` (\${a.error})\` : ""}\` : \`HTTP \${a.status_code}\`, formatDuration(a.duration_ms)].join(" · ")
      }))
    )
  ];
  return moments.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
function timeline(moments) {
  if (moments.length === 0) return el("p", { class: "hint", text: "Nothing yet among the newest shown." });
  return el(
    "ol",
    { class: "timeline" },
    moments.map((m) => el("li", {}, [el("time", { datetime: m.at, title: m.at, text: when(m.at) }), " ", el("span", { class: "kind", text: m.kind }), m.what]))
  );
}
function payment(p) {
  const detail = p.payment_method.payment_method_detail;
  const card = detail?.card?.card_data;
  const body = [
    fields([
      ["Id", p.id],
      ["Merchant order id", p.merchant_order_id],
      ["Description", p.description],
      ["Status", \`\${p.status} / \${p.sub_status}\`],
      ["Amount", money(p.amount)],
      ["Captured", money({ value: p.amount.captured, currency: p.amount.currency })],
      ["Refunded", money({ value: p.amount.refunded, currency: p.amount.currency })],
      ["Method", p.payment_method.type],
      ["Vaulted token", p.payment_method.vaulted_token],
      ["Card", card ? \`\${card.brand ?? ""} \${card.iin ?? ""}…\${card.lfd ?? ""}\`.trim() : null],
      ["Created", when(p.created_at)]
    ]),
    el("h3", { text: "Timeline: transactions, events and webhook attempts" }),
    timeline(timelineOf(p))
  ];
  if (p.status === "PENDING") {
    body.push(el("p", { class: "row" }, PAYER_OUTCOMES.map((o) => button(\`Payer: \${o}\`, \`payer:\${p.id}:\${o}\`, () => void act(\`Payer outcome \${o}\`, "POST", \`/sandbox/payments/\${encodeURIComponent(p.id)}/payer-outcome\`, { outcome: o })))));
  }
  body.push(jsonBlock("JSON", p));
  return item("payment", p.id, [p.status, money(p.amount), p.merchant_order_id, when(p.created_at)], body);
}
function attempt(a) {
  return el("li", {}, [
    fields([
      ["Retry", a.retry],
      ["At", when(a.at)],
      ["Answer", a.status_code === null ? "no answer" : a.status_code],
      ["Error", a.error],
      ["Duration", formatDuration(a.duration_ms)],
      ["Signature", a.signature]
    ]),
    el("p", { class: "hint", text: "Exact bytes sent:" }),
    el("pre", { class: "bytes", text: a.request_body })
  ]);
}
function delivery(d) {
  return item("delivery", d.id, [d.state, d.event_type, \`\${d.attempts.length} \${d.attempts.length === 1 ? "attempt" : "attempts"}\`, when(d.created_at)], [
    fields([
      ["Id", d.id],
      ["Event", d.event_id],
      ["Webhook", d.webhook_id],
      ["URL", d.url],
      ["Idempotency key", d.idempotency_key],
      ["Next attempt", d.next_attempt_at === null ? null : when(d.next_attempt_at)]
    ]),
    el("p", {}, button("Redeliver", \`redeliver:\${d.id}\`, () => void act("Redeliver", "POST", \`/sandbox/webhook-deliveries/\${encodeURIComponent(d.id)}/redeliver\`))),
    el("h3", { text: "Attempts" }),
    d.attempts.length === 0 ? el("p", { class: "hint", text: "No attempt yet." }) : el("ol", { class: "attempts" }, d.attempts.map(attempt))
  ]);
}
var event = (e) => item("event", e.id, [e.type, \`\${e.resource_type} \${e.resource_id}\`, when(e.created_at)], [jsonBlock("Data", e.data)]);
function journalEntry(r) {
  const fault = r.fault ? [r.fault.source, r.fault.rule_id, r.fault.effect].filter(Boolean).join(" ") : null;
  return item("request", r.id, [\`\${r.method} \${r.path}\`, r.status === 0 ? "no answer" : r.status, formatDuration(r.duration_ms), fault ? \`fault: \${fault}\` : null, when(r.at)], [
    fields([
      ["Operation", r.operation_id],
      ["Request id", r.request_id],
      ["Idempotency key", r.idempotency_key],
      ["Replayed", r.replayed],
      ["Fault", fault]
    ]),
    jsonBlock("Request body", r.request_body),
    jsonBlock("Response body", r.response_body)
  ]);
}
function subscription(entry) {
  const s = entry.subscription;
  const cycles = s.billing_cycles;
  return item("subscription", s.id, [s.status, s.name, money(s.amount), \`cycle \${cycles.current} of \${cycles.total === null ? "∞" : cycles.total}\`], [
    fields([
      ["Id", s.id],
      ["Next cycle at", cycles.next_at === null ? null : when(cycles.next_at)],
      ["Frequency", \`\${s.frequency.value} \${s.frequency.type}\`],
      ["Vaulted token", s.payment_method?.vaulted_token]
    ]),
    el("h3", { text: "Cycle payments" }),
    entry.cycle_payments.length === 0 ? el("p", { class: "hint", text: "No charge yet." }) : el("ul", { class: "lines" }, entry.cycle_payments.map((c) => el("li", { text: [when(c.created_at), c.merchant_order_id, c.status, money(c.amount)].join(" · ") }))),
    jsonBlock("JSON", s)
  ]);
}
var plain = (kind, summaryOf) => (r) => item(kind, r.id, summaryOf(r), [jsonBlock("JSON", r)]);
var RENDERERS = {
  payments: payment,
  deliveries: delivery,
  events: event,
  journal: journalEntry,
  customers: plain("customer", (c) => [c.merchant_customer_id, [c.first_name, c.last_name].filter(Boolean).join(" "), c.email]),
  subscriptions: subscription,
  recipients: plain("recipient", (r) => [r.legal_name || [r.first_name, r.last_name].filter(Boolean).join(" ") || r.merchant_recipient_id, r.id]),
  transfers: plain("transfer", (t) => [t.status, money(t.amount), t.recipient_id]),
  banking_entities: plain("entity", (e) => [e.merchant_entity_id, e.id]),
  banking_onboardings: plain("onboarding", (o) => [o.status, o.id]),
  banking_accounts: plain("account", (a) => [a.account_type, a.status, a.id])
};
var SECTION_IDS = Object.keys(RENDERERS);
var rendered = {};
function renderSection(id, list, bound) {
  const section = byId(id);
  const signature = JSON.stringify([list, bound, id === "payments" ? latest : null]);
  if (rendered[id] === signature) return;
  rendered[id] = signature;
  const container = section.querySelector(".items");
  const boundNode = section.querySelector(".bound");
  if (!container || !boundNode) return;
  const open = new Set(Array.from(container.querySelectorAll("details[open]"), (d) => d.dataset.key));
  const active = document.activeElement instanceof HTMLElement && container.contains(document.activeElement) ? document.activeElement.dataset.key : void 0;
  boundNode.textContent = bound;
  container.replaceChildren(...(list ?? []).map((record) => RENDERERS[id](record)));
  for (const d of Array.from(container.querySelectorAll("details"))) if (open.has(d.dataset.key)) d.open = true;
  if (active) {
    const again2 = Array.from(container.querySelectorAll("[data-key]")).find((n) => n.dataset.key === active && n.matches("button, summary"));
    again2?.focus();
  }
}
var boundText = (shown, total) => total > shown ? \`The newest \${shown} of \${total}, newest first.\` : shown === 0 ? "None yet." : \`All \${shown}, newest first.\`;
var newestList = (r) => r.ok && Array.isArray(r.json) ? r.json.slice().reverse() : [];
var listBound = (list) => list.length < LIMIT ? boundText(list.length, list.length) : \`The newest \${LIMIT}, newest first; older ones are not shown.\`;
function renderAll(clock, overview, events, deliveries, journal) {
  const merchant = overview.merchant;
  byId("merchant").textContent = \`\${merchant.name} (\${merchant.id}; accounts \${merchant.account_ids.join(", ")})\`;
  byId("clock").textContent = \`\${when(clock.now)} (offset \${clock.offset_seconds} s\${clock.frozen ? ", frozen" : ""})\`;
  latest = { events: newestList(events), deliveries: newestList(deliveries) };
  renderSection("events", latest.events, listBound(latest.events));
  renderSection("deliveries", latest.deliveries, listBound(latest.deliveries));
  renderSection("payments", overview.payments.items, boundText(overview.payments.items.length, overview.payments.total));
  renderSection("customers", overview.customers.items, boundText(overview.customers.items.length, overview.customers.total));
  renderSection("subscriptions", overview.subscriptions.items, boundText(overview.subscriptions.items.length, overview.subscriptions.total));
  renderSection("recipients", overview.recipients.items, boundText(overview.recipients.items.length, overview.recipients.total));
  renderSection("transfers", overview.transfers.items, boundText(overview.transfers.items.length, overview.transfers.total));
  renderSection("banking_entities", overview.banking_entities.items, boundText(overview.banking_entities.items.length, overview.banking_entities.total));
  renderSection("banking_onboardings", overview.banking_onboardings.items, boundText(overview.banking_onboardings.items.length, overview.banking_onboardings.total));
  renderSection("banking_accounts", overview.banking_accounts.items, boundText(overview.banking_accounts.items.length, overview.banking_accounts.total));
  if (journal.status === 404) renderSection("journal", null, "Journal not available in this sandbox.");
  else if (!journal.ok) renderSection("journal", null, \`Journal not readable: \${problemText(journal)}\`);
  else {
    const listed = Array.isArray(journal.json) ? journal.json : journal.json?.data ?? [];
    const entries = listed.slice().reverse();
    renderSection("journal", entries, listBound(entries));
  }
}
var inFlight = false;
var again = false;
async function refresh(force) {
  if (!storedKeys() || !force && !byId("live").checked) return;
  if (inFlight) {
    again = again || force;
    return;
  }
  inFlight = true;
  try {
    const q = \`?limit=\${LIMIT}\`;
    const [clock, overview, events, deliveries, journal] = await Promise.all([
      api("GET", "/sandbox/clock"),
      api("GET", \`/sandbox/inspector/overview\${q}\`),
      api("GET", \`/sandbox/events\${q}\`),
      api("GET", \`/sandbox/webhook-deliveries\${q}\`),
      api("GET", \`/sandbox/requests\${q}\`)
    ]);
    const refused = [clock, overview, events, deliveries].find((r) => !r.ok);
    if (refused && (refused.status === 401 || refused.status === 403)) {
      signOut();
      fail(\`The sandbox refused these keys: \${problemText(refused)}\`);
      return;
    }
    if (refused || !clock.json || !overview.json) {
      fail(\`Cannot read the sandbox: \${refused ? problemText(refused) : "an empty answer"}\`);
      return;
    }
    renderAll(clock.json, overview.json, events, deliveries, journal);
    byId("updated").textContent = \`Updated \${(/* @__PURE__ */ new Date()).toLocaleTimeString()}\`;
  } catch (error) {
    fail(\`Cannot reach the sandbox: \${error.message}\`);
  } finally {
    inFlight = false;
    if (again) {
      again = false;
      void refresh(true);
    }
  }
}
function show(signedIn) {
  byId("signin").hidden = signedIn;
  byId("app").hidden = !signedIn;
}
function signOut() {
  sessionStorage.removeItem(KEYS);
  for (const id of SECTION_IDS) {
    delete rendered[id];
    byId(id).querySelector(".items")?.replaceChildren();
  }
  byId("clock").textContent = "";
  byId("merchant").textContent = "";
  show(false);
  say("Signed out.");
}
byId("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  fail("");
  const publicKey = byId("public-key");
  const secretKey = byId("secret-key");
  sessionStorage.setItem(KEYS, JSON.stringify({ publicKey: publicKey.value.trim(), secretKey: secretKey.value.trim() }));
  publicKey.value = "";
  secretKey.value = "";
  show(true);
  say("Signed in.");
  void refresh(true);
});
byId("advance-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const seconds = Number(byId("advance-amount").value) * Number(byId("advance-unit").value);
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_ADVANCE) {
    fail(\`Advance by a whole number of seconds from 1 to \${MAX_ADVANCE}.\`);
    return;
  }
  void act(\`Advance the clock by \${seconds} s\`, "POST", "/sandbox/clock/advance", { seconds });
});
byId("script-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const token = byId("script-token").value.trim();
  const sequence = byId("script-sequence").value.split(",").map((s) => s.trim()).filter(Boolean);
  void act("Script outcomes", "POST", \`/sandbox/payment-methods/\${encodeURIComponent(token)}/outcomes\`, { sequence });
});
byId("refresh").addEventListener("click", () => void refresh(true));
byId("signout").addEventListener("click", signOut);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") void refresh(false);
});
setInterval(() => {
  if (document.visibilityState === "visible") void refresh(false);
}, POLL_MS);
show(storedKeys() !== null);
if (storedKeys()) void refresh(true);
`;
