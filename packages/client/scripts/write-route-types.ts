import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildRouteTypes, TYPES_DIR } from './route-types.js';

const files = await buildRouteTypes();
mkdirSync(TYPES_DIR, { recursive: true });
// A file no longer generated (a domain renamed or removed) must not linger.
for (const stale of readdirSync(TYPES_DIR)) if (!files.has(stale)) rmSync(path.join(TYPES_DIR, stale));
for (const [name, content] of files) writeFileSync(path.join(TYPES_DIR, name), content);
console.log(`wrote ${[...files.keys()].join(', ')} in ${TYPES_DIR}`);
