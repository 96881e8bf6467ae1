import fc from 'fast-check';
import type { SyncTestServer } from '../helpers';
import { settleAndCheck } from './checks';
import { commandArbs, newModel, seedRun } from './commands';
import { openRun } from './run-env';

export interface ModelBudget {
  /** Sequences to try at most. */
  runs: number;
  /** Stop starting new sequences after this long (ms); null: run all `runs`. */
  timeLimitMs: number | null;
  /** Commands per sequence at most. */
  maxCommands: number;
  /** Replays a run (printed with every failure); none: a new one. */
  seed?: number | undefined;
}

/**
 * The model-based test of the sync engine (issue 22): fast-check generates sequences of commands
 * (files created, modified, renamed, deleted; folders added and removed; pause and resume; storage
 * faults and connection resets; the wallet drained and topped up; engine restarts), runs each against
 * the real engine, the real reference server and the real disk, then settles and checks the invariants
 * (checks.ts). A failure names the seed and the sequence, which `seed` replays.
 */
export async function checkModel(
  server: SyncTestServer,
  budget: ModelBudget,
): Promise<{ runs: number; seed: number }> {
  let runs = 0;
  const seed = budget.seed ?? Math.floor(Math.random() * 2 ** 31);
  const property = fc.asyncProperty(
    fc.commands(commandArbs, { maxCommands: budget.maxCommands, size: 'max' }),
    async (commands) => {
      runs++;
      const began = Date.now();
      const env = await openRun(server);
      const model = newModel(env.slots.length);
      try {
        await seedRun(model, env);
        await fc.asyncModelRun(() => ({ model, real: env }), commands);
        await settleAndCheck(env, model);
        if (process.env.ASSETS_MODEL_TRACE)
          console.log(
            `${Date.now() - began} ms: ${String(commands)} => ${env.h.engine
              .listFiles({ limit: 1000 })
              .map((r) => `${r.name}:${r.state}`)
              .join(' ')}`,
          );
      } finally {
        await env.close();
      }
    },
  );
  await fc.assert(property, {
    numRuns: budget.runs,
    ...(budget.timeLimitMs !== null ? { interruptAfterTimeLimit: budget.timeLimitMs } : {}),
    // Every run is a real engine against a real server: shrinking would repeat many of them.
    endOnFailure: true,
    seed,
  });
  return { runs, seed };
}
