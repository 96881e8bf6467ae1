import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    globalSetup: ['test/support/renderer-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers, SQLite files and browsers are real: two cores run at most two files at once.
    maxWorkers: 2,
    // expect.poll waits for an event (a row, a badge, a state); its default of 1 s is a clock that a
    // busy machine misses. A poll still ends the moment its condition holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
