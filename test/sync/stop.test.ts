import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileApiClient } from '../../src-main/core/service/file-api-client';
import { STOP_GRACE_MS } from '../../src-main/core/sync/engine';
import { fakeClock } from './fake-clock';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** The real client, whose uploads never answer and do not hear their abort (a call stuck somewhere). */
function deafUploads(client: FileApiClient) {
  const started: string[] = [];
  const wrapped = new Proxy(client, {
    get(target, key, receiver) {
      if (key === 'uploadFile')
        return (o: { name: string }) => {
          started.push(o.name);
          return new Promise(() => undefined);
        };
      return Reflect.get(target, key, receiver);
    },
  });
  return { client: wrapped, started };
}

describe('engine.stop() on the injected clock', () => {
  it('awaits every room, lets go of work deaf to its abort after the grace on that clock, and leaves no timer', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'stuck.png'), randomBytes(1024));
    const clock = fakeClock(Date.now());
    const { client, started } = deafUploads(testClient(server.baseUrl, server.demoKey));
    const h = makeEngine(client, { clock });
    const sending = new Promise<void>((r) => h.engine.on('file', (e) => e.to === 'UPLOADING' && r()));
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'stop-grace' })).ok).toBe(true);
      // The file's stability window passes on the engine's clock, then it is hashed and sent.
      await clock.advance(200);
      await sending;
      let stopped = false;
      const stopping = h.engine.stop().then(() => {
        stopped = true;
      });
      await turns(20);
      expect(stopped).toBe(false);
      await clock.advance(STOP_GRACE_MS - 1);
      expect(stopped).toBe(false);
      // The grace ends on the engine's clock: no wall-clock wait, no polling.
      await clock.advance(1);
      await turns(20);
      expect(stopped).toBe(true);
      await stopping;
      // Every room's timer was its own and is gone: nothing sleeps on the clock any more.
      expect(clock.pending()).toBe(0);
      expect(started).toEqual(['stuck.png']);
      // The upload's journal entry stays open for the next start's listing.
      expect(h.engine.listFiles()[0]?.state).toBe('UPLOADING');
      // Stopped once: asked again, it has nothing more to wait for.
      await h.engine.stop();
    } finally {
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
