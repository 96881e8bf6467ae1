import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { NativeSubscribe } from '../../src-main/core/sync/watch/watch-folder';
import { makeEngine, type SyncTestServer, startServer, tempDir, testClient, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

describe('a watcher event that arrives after the engine stopped', () => {
  // The native watcher runs in its own thread: a batch it had read may reach the engine while stop()
  // awaits its close, or after. Such a batch once set a 100 ms timer that read SQLite after the
  // database was closed ("The database connection is not open", an uncaught error in a timer).
  it('schedules nothing, so nothing reads the closed database', async () => {
    const dir = tempDir();
    let deliver: Parameters<NativeSubscribe>[1] | null = null;
    const subscribe: NativeSubscribe = async (_dir, onEvents) => {
      deliver = onEvents;
      return { unsubscribe: async () => {} };
    };
    const h = makeEngine(testClient(server.baseUrl, server.demoKey), {
      watch: true,
      subscribeNative: subscribe,
    });
    try {
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'late' })).ok).toBe(true);
      await until('the folder watched and in sync', () => {
        const f = h.engine.listFolders()[0];
        return deliver !== null && f?.watching === 'native' && f.inSync;
      });
      await h.release();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      deliver!(null, [{ path: `${dir}/late.png`, type: 'create' }]);
      expect(vi.getTimerCount(), 'a timer set by the late batch').toBe(0);
      expect(() => vi.advanceTimersByTime(1000)).not.toThrow();
    } finally {
      vi.useRealTimers();
      await h.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
