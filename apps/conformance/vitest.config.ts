import { defineConfig } from 'vitest/config';
import { vitestPreset } from '@switchyard/tooling/vitest';

/** The runner's own tests (`*.test.ts`); the conformance suite itself has its own config. */
export default defineConfig({ ...vitestPreset, test: { ...vitestPreset.test, testTimeout: 120_000, hookTimeout: 60_000 } });
