import { defineConfig } from 'vitest/config';
import { vitestPreset } from '@switchyard/tooling/vitest';

/**
 * The runner's own tests (`*.test.ts`); the conformance suite itself is configured in `src/run.ts`.
 * They run the built CLI (`dist`, through `bin/`) as a user would: `test` depends on `build` (turbo.json).
 */
export default defineConfig({ ...vitestPreset, test: { ...vitestPreset.test, testTimeout: 120_000, hookTimeout: 60_000, globalSetup: ['./src/test-support/built.ts'] } });
