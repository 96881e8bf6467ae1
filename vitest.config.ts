import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    // A worker keeps its modules from one test file to the next: each file used to load the core anew,
    // 243 s of the run's 1,500 s of work spent importing (a browser test about 3.6 s before its first
    // line). Shared, the whole run went from about 520 s to 360 s on a quiet machine. Files still own
    // their servers, folders and databases (each on its own port and temp dir) and put back what they
    // change in process.env; a file run alone is isolated as before.
    isolate: false,
    globalSetup: ['test/support/renderer-once.ts'],
    setupFiles: ['test/support/fresh-budgets.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Servers, SQLite files, child processes and browsers are real, and most of a file's time is spent
    // waiting on them: three files at once fill the waits (the whole run 646 s -> 507 s on a quiet
    // machine); four were slower again on the whole run (526 s), the two cores then full.
    maxWorkers: 3,
    // expect.poll waits for an event (a row, a badge, a state); its default of 1 s is a clock that a
    // busy machine misses. A poll still ends the moment its condition holds.
    expect: { poll: { timeout: 15_000 } },
  },
});
