import { DEFAULT_INSPECTOR_LIMIT, MAX_CLOCK_ADVANCE_SECONDS, PAYER_OUTCOMES, SCRIPTED_OUTCOMES } from '@switchyard/contract';
import { escapeHtml as escape, pageWithAssets } from '../html.js';

export const INSPECTOR_PATH = '/inspector';
export const SCRIPT_PATH = `${INSPECTOR_PATH}/inspector.js`;
export const STYLESHEET_PATH = `${INSPECTOR_PATH}/inspector.css`;

/** The sections the page fills from the API, in the order they appear (id, heading). */
const SECTIONS: readonly (readonly [string, string])[] = [
  ['payments', 'Payments'],
  ['deliveries', 'Webhook deliveries'],
  ['events', 'Events'],
  ['journal', 'Request journal'],
  ['customers', 'Customers'],
  ['subscriptions', 'Subscriptions'],
  ['recipients', 'Recipients'],
  ['transfers', 'Transfers'],
  ['banking_entities', 'Banking entities'],
  ['banking_onboardings', 'Banking onboardings'],
  ['banking_accounts', 'Banking accounts'],
];

const options = (values: readonly string[]) => values.map((v) => `<option>${escape(v)}</option>`).join('');

const signIn = `<section id="signin" aria-labelledby="signin-title" hidden>
<h2 id="signin-title">Sign in with your sandbox keys</h2>
<form id="signin-form" autocomplete="off">
<label for="public-key">Public API key</label>
<input id="public-key" required autocomplete="off" spellcheck="false">
<label for="secret-key">Private secret key</label>
<input id="secret-key" type="password" required autocomplete="off" spellcheck="false">
<button type="submit">Sign in</button>
</form>
<p class="hint">The keys stay in this tab's session storage (gone when the tab closes) and are sent only to this sandbox's API, as the two key headers.</p>
</section>`;

const controls = `<section id="controls" aria-labelledby="controls-title">
<h2 id="controls-title">Sandbox</h2>
<p>Sandbox time: <output id="clock"></output></p>
<form id="advance-form">
<label for="advance-amount">Advance the clock by</label>
<span class="row"><input id="advance-amount" type="number" min="1" value="1" required inputmode="numeric">
<select id="advance-unit" aria-label="Unit"><option value="1">seconds</option><option value="60">minutes</option><option value="3600" selected>hours</option><option value="86400">days</option></select>
<button type="submit">Advance</button></span>
</form>
<form id="script-form">
<label for="script-token">Script the next charges of a vaulted method: vaulted token</label>
<input id="script-token" required spellcheck="false">
<label for="script-sequence">Outcomes, in order, separated by commas</label>
<input id="script-sequence" required spellcheck="false" list="scripted-outcomes" value="SUCCEEDED">
<datalist id="scripted-outcomes">${options(SCRIPTED_OUTCOMES)}</datalist>
<p class="hint">One of ${escape(SCRIPTED_OUTCOMES.join(', '))}.</p>
<button type="submit">Script outcomes</button>
</form>
<p class="row"><label><input id="live" type="checkbox" checked> Live updates (every 2 s while this tab is visible)</label>
<button id="refresh" type="button">Refresh now</button> <button id="signout" type="button">Sign out</button></p>
<p id="updated" class="hint"></p>
</section>`;

const section = ([id, title]: readonly [string, string]) =>
  `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${escape(title)}</h2><p class="bound"></p><div class="items"></div></section>`;

/**
 * The inspector's one page. Static but for what the contract knows (scripted outcomes, payer
 * outcomes, the clock's largest step, the page size), which is written into it here rather than
 * retyped in the browser script.
 */
export function inspectorPage(): string {
  const nav = SECTIONS.map(([id, title]) => `<li><a href="#${id}">${escape(title)}</a></li>`).join('');
  return pageWithAssets(
    'Switchyard inspector',
    { stylesheet: STYLESHEET_PATH, script: SCRIPT_PATH },
    `<header><h1>Switchyard inspector</h1>
<p id="status" role="status" aria-live="polite"></p><p id="error" role="alert"></p></header>
<noscript><p>The inspector needs JavaScript: it reads the sandbox's API with your keys, from this tab.</p></noscript>
<main id="config" data-limit="${DEFAULT_INSPECTOR_LIMIT}" data-max-advance="${MAX_CLOCK_ADVANCE_SECONDS}" data-payer-outcomes="${escape(PAYER_OUTCOMES.join(','))}">
${signIn}
<div id="app" hidden>
<nav aria-label="Sections"><ul>${nav}</ul></nav>
${controls}
${SECTIONS.map(section).join('\n')}
</div>
</main>`,
  );
}
