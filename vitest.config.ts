import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace. Browser tests live in e2e/ with their own config.
export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'packages/*/src/**/*.test.{ts,tsx}', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
