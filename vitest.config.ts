import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers, SQLite files and browsers are real: two cores run at most two files at once.
    maxWorkers: 2,
  },
});
