import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

function newestSource(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'test-support' ? 0 : newestSource(path);
      return entry.name.endsWith('.test.ts') ? 0 : statSync(path).mtimeMs;
    }),
  );
}

/** The tests run the built CLI: refuse to test a dist that is missing or older than the sources. */
export default function setup(): void {
  const built = join(PACKAGE, 'dist', 'main.js');
  let builtAt: number;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    throw new Error(`${built} is missing: build first (npx -y pnpm@10 --filter @switchyard/conformance... build)`);
  }
  if (newestSource(join(PACKAGE, 'src')) > builtAt) throw new Error('dist is older than src: build first (npx -y pnpm@10 --filter @switchyard/conformance... build)');
}
