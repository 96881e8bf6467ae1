import { afterAll } from 'vitest';
import { forgetAllBudgets, setOfficeBudgetMaker } from '../../src-main/core/service/request-budget';

// A worker runs test file after test file in one process (vitest.config.ts, isolate: false), and servers
// listen on ports the system hands out again: a later file must not meet an earlier file's request budget
// (its window, its cuts, its rate) at a reused port, nor an office maker a file left set.
afterAll(() => {
  forgetAllBudgets();
  setOfficeBudgetMaker(null);
});
