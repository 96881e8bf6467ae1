import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    globalSetup: ['test/support/renderer-once.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers, SQLite files, child processes and browsers are real, and most of a file's time is spent
    // waiting on them: measured on the browser and CLI files, the two cores were about 58% busy with
    // three files at once (302 s) and as busy with four (258 s), so four fill the waits.
    maxWorkers: 4,
    // expect.poll waits for an event (a row, a badge, a state); its default of 1 s is a clock that a
    // busy machine misses. A poll still ends the moment its condition holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
