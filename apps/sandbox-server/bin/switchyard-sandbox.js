#!/usr/bin/env node
// The package's bin, committed so that `pnpm install` can link it before anything is built
// (a bin pointing into dist/ made every fresh install warn). The CLI itself is dist/bundle/main.js:
// dist/main.js and the npm packages it imports, bundled into one file that starts in about half
// the time (the package's build makes it).
import { existsSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

const main = new URL('../dist/bundle/main.js', import.meta.url);
if (!existsSync(fileURLToPath(main))) {
  process.stderr.write(
    `switchyard-sandbox: ${fileURLToPath(main)} is missing. Hint: build the sandbox first (npx -y pnpm@10 build in the repository), or run it with npx -y pnpm@10 sandbox.\n`,
  );
  process.exit(1);
}
await import(main.href);
