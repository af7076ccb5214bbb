#!/usr/bin/env node
// A committed launcher rather than `bin` pointing into dist: pnpm links bins at install time,
// before any build, and warns about (and skips) a bin whose file does not exist yet.
import { existsSync } from 'node:fs';
import process from 'node:process';
import { URL } from 'node:url';

const main = new URL('../dist/main.js', import.meta.url);
if (existsSync(main)) await import(main.href);
else {
  process.stderr.write(`switchyard-conformance: ${main.pathname} is missing. Hint: build it first (npx -y pnpm@10 build in the repository), or run npx -y pnpm@10 conformance.\n`);
  process.exitCode = 2;
}
