import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores on CI: forks keep subprocess-heavy suites (crash tests, CLI runs) isolated.
    pool: 'forks',
  },
});
