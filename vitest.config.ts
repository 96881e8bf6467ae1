import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    globalSetup: ['test/support/renderer-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers, SQLite files and browsers are real, and most of a file's time is spent waiting on them
    // (a whole run keeps two cores about 57% busy with two files at once): three files at once fill
    // the waits without more than the two cores' work.
    maxWorkers: 3,
    // expect.poll waits for an event (a row, a badge, a state); its default of 1 s is a clock that a
    // busy machine misses. A poll still ends the moment its condition holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
