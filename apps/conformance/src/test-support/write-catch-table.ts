/** Writes the mutation catch table into docs/conformance.md (mutation.test.ts fails while it is stale). */
import { readFileSync, writeFileSync } from 'node:fs';
import { catchTable, DOC, TABLE_END, TABLE_START } from './catches.js';

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(TABLE_START);
const end = doc.indexOf(TABLE_END);
if (start < 0 || end < 0) throw new Error(`${DOC} has no catch-table markers`);
writeFileSync(DOC, `${doc.slice(0, start)}${TABLE_START}\n${catchTable()}${doc.slice(end)}`);
