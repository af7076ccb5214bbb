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
    testTimeout: 20_000,
  },
};
