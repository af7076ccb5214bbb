import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderApiReference } from './api-reference.js';

const target = fileURLToPath(new URL('../../../docs/api-reference.md', import.meta.url));
writeFileSync(target, renderApiReference());
console.log(`wrote ${target}`);
