/**
 * Shared vitest settings. Tests live next to the code as *.test.ts and are type-checked
 * separately by `tsc --noEmit` (the typecheck task), so vitest only runs them.
 */
export const vitestPreset = {
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    reporters: ['default', 'junit'],
    outputFile: { junit: './reports/junit.xml' },
    // A hang detector, not a speed goal (those live in bench/): CI runs every package's tests at
    // once on two cores, where a test that takes 3 s alone was seen to take over 20 s.
    testTimeout: 60_000,
    // Hooks too: a beforeAll that starts a sandbox and launches Chromium took 5 s under load here, and
    // vitest's default of 10 s failed every test of two browser files in a CI run on a slower machine.
    hookTimeout: 60_000,
  },
};
