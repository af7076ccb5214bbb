import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED_END, GENERATED_START, compareWithUpstream, renderComparison } from './upstream-comparison.js';

const docPath = fileURLToPath(new URL('../../../docs/contract-vs-upstream.md', import.meta.url));
const doc = readFileSync(docPath, 'utf8');
const start = doc.indexOf(GENERATED_START);
const end = doc.indexOf(GENERATED_END);
if (start < 0 || end < 0) throw new Error(`${docPath} lacks the generated markers`);
writeFileSync(docPath, doc.slice(0, start) + renderComparison(compareWithUpstream()) + doc.slice(end + GENERATED_END.length));
console.log(`updated ${docPath}`);
