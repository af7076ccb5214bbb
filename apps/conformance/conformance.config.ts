import { defineConfig } from 'vitest/config';

/** The conformance suite, run programmatically by the CLI. Files run one after another against one server. */
export default defineConfig({
  test: {
    include: ['src/suites/**/*.conformance.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: [],
  },
});
