import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { must, openApp, removeDir, startServer, tempDir, testKeychain } from './helpers';

describe('the KB sync after stop', () => {
  const dir = tempDir('kb-stop-');
  const keychain = testKeychain();
  afterAll(() => {
    keychain.cleanup();
    removeDir(dir);
  });

  it('starts no round once stopped, so a late request never reaches a closing database', async () => {
    const server = await startServer(join(dir, 'server'));
    try {
      const app = openApp(join(dir, 'app.sqlite'), keychain);
      const bot = must(app.kb.addBot({ name: 'Shop bot', baseUrl: server.baseUrl, token: 'kb_x' }));
      await app.kb.stop();
      const seen = app.snapshots.length;
      // What setUpSandbox's `void syncBot` does while the app closes: no round may start (the app
      // closes the database right after stop()).
      expect((await app.kb.syncNow(bot.id)).ok).toBe(true);
      expect(app.snapshots.length).toBe(seen);
      await app.close();
    } finally {
      await server.close();
    }
  });
});
