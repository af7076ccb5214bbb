import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { upstreamReference } from '@switchyard/tooling/upstream';
import { GENERATED_END, GENERATED_START, compareWithUpstream, renderComparison } from './upstream-comparison.js';

const upstream = upstreamReference();
if (!upstream.available) {
  console.error(`upstream:doc compares the contract with upstream's OpenAPI files, and ${upstream.reason}`);
  process.exit(1);
}

const docPath = fileURLToPath(new URL('../../../docs/contract-vs-upstream.md', import.meta.url));
const doc = readFileSync(docPath, 'utf8');
const start = doc.indexOf(GENERATED_START);
const end = doc.indexOf(GENERATED_END);
if (start < 0 || end < 0) throw new Error(`${docPath} lacks the generated markers`);
writeFileSync(docPath, doc.slice(0, start) + renderComparison(compareWithUpstream()) + doc.slice(end + GENERATED_END.length));
console.log(`updated ${docPath}`);
