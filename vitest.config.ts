import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace. Browser tests live in e2e/ with their own config.
export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts', 'packages/*/src/**/*.test.{ts,tsx}', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A web test's React or antd timer (animations, the task panel's polling, a toast's close) that fires after the
    // file's jsdom has been torn down throws "window/document is not defined" with every test passed, and fails the
    // run on a loaded machine (seen in CI and by helpers, never reproduced idle). In a browser these globals always
    // exist, and the browser suite (e2e/) runs the same code for real; only exactly this error is ignored.
    onUnhandledError(error) {
      if (error?.name === 'ReferenceError' && /^(window|document) is not defined$/.test(String(error.message))) return false;
    },
  },
});
