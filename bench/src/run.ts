import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { clientOverhead } from './client-overhead.js';
import { renderMarkdown, machine, writeResults, type Figure } from './report.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean' }, out: { type: 'string' } } });
const quick = values.quick ?? false;
const out = values.out ?? fileURLToPath(new URL('../results/latest', import.meta.url));

const figures: Figure[] = [];
figures.push(...(await clientOverhead(quick ? { calls: 40, warmup: 10, block: 20 } : { calls: 4000, warmup: 500, block: 100 })));

writeResults(out, figures, quick ? 'quick (smoke)' : 'full');
process.stdout.write(renderMarkdown(figures, { ...machine(), date: new Date().toISOString(), mode: quick ? 'quick' : 'full' }));
process.stdout.write(`\nwrote ${out}.md and ${out}.json\n`);
