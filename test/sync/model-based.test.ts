import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SyncTestServer, startServer } from './helpers';
import { checkModel } from './model/model-check';

/**
 * The model-based test (model/): random sequences against the real engine and reference server. A
 * short budget here; `npm run soak` runs it long (ASSETS_MODEL_SECONDS, ASSETS_MODEL_SEED to replay).
 */
const seconds = Number(process.env.ASSETS_MODEL_SECONDS ?? 25);
const seed = process.env.ASSETS_MODEL_SEED === undefined ? undefined : Number(process.env.ASSETS_MODEL_SEED);

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('the sync engine against a model', () => {
  it('settles every random sequence with every file in a stated state, mirrors equal, nothing stored twice', {
    timeout: (seconds + 150) * 1000,
  }, async () => {
    const { runs } = await checkModel(server, {
      runs: 1_000_000,
      timeLimitMs: seconds * 1000,
      maxCommands: 24,
      ...(seed !== undefined ? { seed } : {}),
    });
    console.log(`model-based test: ${runs} sequence(s) in ${seconds} s`);
    expect(runs).toBeGreaterThan(0);
  });
});
