import { defineConfig } from 'vitest/config';
import { vitestPreset } from '@switchyard/tooling/vitest';

/**
 * `*.test-d.ts` hold type-level tests (the generated route types equal ts-rest's inference): vitest
 * runs them through tsc and reports each as passed or failed, where running them as code would
 * assert nothing.
 */
export default defineConfig({
  ...vitestPreset,
  test: { ...vitestPreset.test, typecheck: { enabled: true, include: ['src/**/*.test-d.ts'], tsconfig: './tsconfig.json' } },
});
