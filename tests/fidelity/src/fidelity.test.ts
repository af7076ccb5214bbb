/**
 * The fidelity suite: every request example of the upstream OpenAPI files, sent to a fresh sandbox
 * as an outside probe sends it (brand renames applied, real ids for upstream's own and for
 * placeholders, then stale data fixed), must get upstream's documented status and a body that
 * fits upstream's response schema, unless a row of docs/fidelity.md records why not. A row of an
 * open divergence asserts that the sandbox still answers the recorded way, so fixing one fails
 * here until its row leaves the table.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamReference } from '@switchyard/tooling/upstream';
import openapi from '@switchyard/contract/openapi.json' with { type: 'json' };
import { createObserver, type Observation } from './observe.js';
import { createRenamer, propertyNames } from './renames.js';
import { createSchemaChecker } from './schema-check.js';
import { describeResponseErrors, parseCounts, parseTable, type Row } from './table.js';
import { ourRoute } from './routes.js';
import { readOperations, requestExamples, type UpstreamExample } from './upstream.js';
import { startWorld, type World } from './world.js';

const DOC = new URL('../../../docs/fidelity.md', import.meta.url);
const reference = upstreamReference();
if (!reference.available) console.log(`fidelity suite skipped: ${reference.reason}`);

const rows = parseTable(readFileSync(DOC, 'utf8'));
const operations = reference.available ? readOperations(`${reference.dir}/openapi`) : [];
const examples: UpstreamExample[] = operations.flatMap(requestExamples);
const rowOf = (example: string, check: Row['check']) => rows.find((row) => row.example === example && row.check === check);

/**
 * How long one example may take (its merchant, its prerequisites, up to two attempts): a hang
 * detector, not a speed goal. An example takes well under a second alone; this leaves room for a
 * machine many times slower and busy with the whole suite.
 */
const EXAMPLE_BOUND_MS = 120_000;

/** `work`, or a rejection naming the example once EXAMPLE_BOUND_MS has passed: a hang points at its example. */
async function withinBound<T>(id: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${id}: no answer within ${EXAMPLE_BOUND_MS / 1000} s`)), EXAMPLE_BOUND_MS);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!reference.available)('upstream examples against a fresh sandbox', () => {
  let world: World;
  const observations = new Map<string, Observation>();

  beforeAll(async () => {
    world = await startWorld();
    const observer = createObserver(world, createRenamer(propertyNames(openapi)), createSchemaChecker());
    // One after another: each example gets its own merchant, and the order never decides an answer.
    for (const example of examples) {
      const deliberate = rowOf(example.id, 'status');
      const deliberateStatus = deliberate?.kind === 'deliberate' ? Number(deliberate.answer) : undefined;
      observations.set(example.id, await withinBound(example.id, observer.observe(example, deliberateStatus)));
    }
    // Hang detectors, not time goals: each example is bounded on its own (EXAMPLE_BOUND_MS), and the
    // hook only far beyond the sum. Alone this takes 10-20 s, but under the whole suite on two cores
    // (every package's tests at once) one CI run took past 60 s at example 43 of 57, and a machine
    // 5-20 times slower than that takes minutes: a bound on the sum grows with every example added.
  }, 900_000);

  const kindOf = (o: Observation) => rowOf(o.example.id, 'status')?.kind;

  /**
   * The categories docs/fidelity.md counts, an outside probe's: the first four split the examples
   * (a deliberate status such as the spec's 200 for upstream's 201 counts as accepted); the last
   * two count the accepted answers whose bodies break upstream's response schema, and their errors.
   */
  function counts(): Record<string, number> {
    const all = [...observations.values()];
    const count = (test: (o: Observation) => boolean) => all.filter(test).length;
    return {
      'accepted as published': count((o) => o.outcome === 'published'),
      'accepted after a stale-data fix': count((o) => o.outcome === 'stale-data fixed'),
      'refused, breaking upstream\'s request schema': count((o) => o.outcome === 'refused' && kindOf(o) === 'schema-broken'),
      'refused otherwise (open divergences)': count((o) => o.outcome === 'refused' && kindOf(o) !== 'schema-broken'),
      'answers breaking upstream\'s response schema': count((o) => o.responseErrors.length > 0),
      'response-schema errors': all.reduce((n, o) => n + o.responseErrors.length, 0),
    };
  }

  afterAll(async () => {
    await world?.stop();
    if (observations.size === 0) return;
    const lines = Object.entries(counts()).map(([label, value]) => `  ${`${label}:`.padEnd(46)} ${value}`);
    // Operations without a request example have nothing to send; they are named so none goes unseen.
    const silent = operations.filter((op) => requestExamples(op).length === 0).map((op) => `${op.method} ${op.path}`);
    // Each refusal named with the rule of upstream's own schema the example breaks, as its row records.
    const refused = [...observations.values()]
      .filter((o) => o.outcome === 'refused')
      .map((o) => `    ${o.example.id}: ${rowOf(o.example.id, 'status')?.rule || 'breaks no rule of upstream (an open divergence)'}`);
    console.log(
      [`fidelity: ${observations.size} upstream request examples`, ...lines, '  refused:', ...refused, `  operations without a request example (${silent.length}): ${silent.join(', ')}`].join('\n'),
    );
  });

  it('counts in docs/fidelity.md what it measures', () => {
    expect(parseCounts(readFileSync(DOC, 'utf8')), 'update the counts table of docs/fidelity.md').toEqual(counts());
  });

  it('finds a route of our contract for every upstream operation', () => {
    expect(operations.filter((op) => !ourRoute(op.method, op.path)).map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('finds upstream request examples to send, each with a name of its own', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(new Set(examples.map((e) => e.id)).size).toBe(examples.length);
  });

  it('lists in docs/fidelity.md only examples that exist, each check once', () => {
    const ids = new Set(examples.map((e) => e.id));
    expect(rows.filter((row) => !ids.has(row.example)).map((row) => row.example)).toEqual([]);
    const keys = rows.map((row) => `${row.example} ${row.check}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });

  describe.each(examples.map((example) => [example.id, example] as const))('%s', (id) => {
    it('gets upstream\'s documented status, or the answer its row records', () => {
      const o = observations.get(id) as Observation;
      const row = rowOf(id, 'status');
      const seen = `${o.example.operation.method} ${o.example.operation.path} answered ${o.answer} (upstream documents ${o.expected}); body: ${JSON.stringify(o.body)}`;
      if (!row) {
        expect(o.outcome, `${seen}\nFix the sandbox, or add a row to docs/fidelity.md that says why.`).not.toBe('refused');
        return;
      }
      if (row.kind === 'schema-broken') {
        expect(o.requestErrors, `the example no longer breaks the rule its row names; upstream's schema says: ${JSON.stringify(o.requestErrors)}`).toContain(row.rule);
      }
      if (row.kind === 'deliberate') {
        expect(o.outcome, `${seen}\nThe row records the deliberate answer ${row.answer}.`).not.toBe('refused');
        expect(String(o.status)).toBe(row.answer);
        return;
      }
      expect(o.answer, `${seen}\nThe sandbox no longer answers as docs/fidelity.md records. If it now gets upstream's status, move the row out of the table (and say so in the commit); otherwise record the new answer.`).toBe(row.answer);
    });

    it('answers with a body that fits upstream\'s response schema, or diverges as its row records', () => {
      const o = observations.get(id) as Observation;
      const row = rowOf(id, 'response');
      const seen = `response-schema errors: ${JSON.stringify(o.responseErrors, null, 1)}`;
      if (!row) {
        expect(o.responseErrors, `${seen}\nFix the answer, or add a response row to docs/fidelity.md.`).toEqual([]);
        return;
      }
      expect(describeResponseErrors(o.responseErrors), `${seen}\nThe body no longer diverges as recorded: if it fits now, move the row out of docs/fidelity.md; otherwise record the new divergence.`).toBe(row.answer);
    });
  });
});
