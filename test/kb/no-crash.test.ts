import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src-main/reference-server/server';
import { until } from '../sync/helpers';
import { byTitle, makeBot, must, openApp, removeDir, startServer, tempDir, testKeychain } from './helpers';

describe('a KB round started by a timer whose record the database refuses', () => {
  const dir = tempDir('kb-no-crash-');
  const keychain = testKeychain();
  let server: RunningServer;
  const uncaught: unknown[] = [];
  const onUncaught = (e: unknown) => uncaught.push(e);
  beforeAll(async () => {
    server = await startServer(join(dir, 'server'));
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
  });
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    await server.close();
    keychain.cleanup();
    removeDir(dir);
  });

  it('ends nothing: the bot says KB-SYNC-FAILED and the round is tried again once the database works', async () => {
    const bot = await makeBot(server);
    const app = openApp(join(dir, 'app.sqlite'), keychain);
    try {
      app.kb.start();
      const botId = must(app.kb.addBot({ name: 'Shop bot', baseUrl: server.baseUrl, token: bot.token }));
      await app.kb.syncNow(botId.id);
      // Recording a round's end (kb_bots.last_sync_at...) is refused, as by a busy database.
      app.db.exec(`CREATE TRIGGER busy BEFORE UPDATE ON kb_bots
                   BEGIN SELECT RAISE(ABORT, 'database is locked (planted)'); END`);
      // An edit nudges the sync: its round runs from a timer, nobody awaiting it (nor its retry).
      must(app.kb.create(botId.id, { title: 'Opening hours', description: 'Mon-Sat 9 to 6' }));
      await until(
        'the round to fail',
        () => must(app.kb.snapshot(botId.id)).bot.sync.error?.code === 'KB-SYNC-FAILED',
      );
      expect(uncaught).toEqual([]);
      app.db.exec('DROP TRIGGER busy');
      await until('the retry to record its round', () => {
        return must(app.kb.snapshot(botId.id)).bot.sync.error === null;
      });
      expect(byTitle(app, botId.id, 'Opening hours')?.state).toBe('synced');
      expect(uncaught).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
