import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src-main/reference-server/server';
import {
  api,
  byTitle,
  makeBot,
  must,
  openApp,
  removeDir,
  startServer,
  tempDir,
  testKeychain,
} from './helpers';

describe('a create queued behind a delete in its undo window, at the 20-entry limit', () => {
  const dir = tempDir('kb-undo-limit-');
  const keychain = testKeychain();
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(join(dir, 'server'));
  });
  afterAll(async () => {
    await server.close();
    keychain.cleanup();
    removeDir(dir);
  });

  it('waits for the delete instead of being refused by the full server (found by the soak)', async () => {
    const { token } = await makeBot(server);
    const app = openApp(join(dir, 'app.sqlite'), keychain, { undoMs: 10 * 60_000 });
    try {
      const botId = must(app.kb.addBot({ name: 'Full bot', baseUrl: server.baseUrl, token })).id;
      for (let i = 1; i <= 20; i++) must(app.kb.create(botId, { title: `Entry ${i}`, description: '' }));
      await app.kb.syncNow(botId);
      expect((await api(server.baseUrl, token, 'GET')).json.entries).toHaveLength(20);

      const victim = byTitle(app, botId, 'Entry 1');
      must(app.kb.remove(victim!.id));
      must(app.kb.create(botId, { title: 'Newcomer', description: '' }));
      await app.kb.syncNow(botId);

      // The delete waits out its window, so the server is still full: the create must wait too.
      expect((await api(server.baseUrl, token, 'GET')).json.entries).toHaveLength(20);
      expect(byTitle(app, botId, 'Newcomer')?.state).toBe('pending');
    } finally {
      await app.close();
    }
  });
});
