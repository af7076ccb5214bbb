import { defineConfig } from 'vitest/config';
import { vitestPreset } from '@switchyard/tooling/vitest';

/**
 * The runner's own tests (`*.test.ts`); the conformance suite itself is configured in `src/run.ts`.
 * They run the built CLI (`dist`, through `bin/`) as a user would: `test` depends on `build` (turbo.json).
 * Each spawns whole runs (the Prism ones about 15 s alone): the limits leave room for a machine busy
 * with the rest of the workspace's tests, and assert nothing about speed.
 */
export default defineConfig({ ...vitestPreset, test: { ...vitestPreset.test, testTimeout: 420_000, hookTimeout: 120_000, globalSetup: ['./src/test-support/built.ts'] } });
