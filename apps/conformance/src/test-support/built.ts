import { fileURLToPath } from 'node:url';
import { refuseStaleBuild } from '@switchyard/tooling/built';

/** The tests run the built CLI: vitest's global setup refuses a dist that is missing or older than the sources. */
export default function setup(): void {
  refuseStaleBuild(fileURLToPath(new URL('../..', import.meta.url)), 'dist/main.js', 'npx -y pnpm@10 --filter @switchyard/conformance... build');
}
