import { defineConfig } from 'vitest/config';

// `npm run test:real`: the live-server suite (test/real/*.real.ts), kept out of `npm test`.
export default defineConfig({
  test: {
    include: ['test/real/**/*.real.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
