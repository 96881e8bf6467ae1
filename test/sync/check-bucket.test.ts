import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileApiClient } from '../../src-main/core/service/file-api-client';
import { countingClient, makeEngine, type SyncTestServer, startServer, tempDir, until } from './helpers';

let server: SyncTestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

/**
 * `checkBucketAtStart` (the CLI's sync): a live row whose copy the service deleted is sent again at
 * start, and a row the listing merely skipped (read newest first while another file went) is asked for
 * by id and left alone: no second copy of a file that is still there.
 */
describe('a folder checked against its bucket at start', () => {
  it('sends again the file deleted on the service, and only that one, even when the listing skips another', async () => {
    const dir = tempDir();
    for (const n of ['a.pdf', 'b.pdf', 'c.pdf']) writeFileSync(join(dir, n), `%PDF ${n}`);
    const first = makeEngine(countingClient(server.baseUrl, server.demoKey).client);
    await first.engine.start();
    expect((await first.engine.addFolder({ path: dir, bucket: 'checked' })).ok).toBe(true);
    await until('three live', () => first.engine.listFiles({ state: 'LIVE' }).length === 3);
    const before = new Map(first.engine.listFiles({ state: 'LIVE' }).map((r) => [r.name, r.remoteId!]));
    await first.release();
    const del = await fetch(`${server.baseUrl}/api/assets/v1/files/${before.get('a.pdf')}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${server.demoKey}` },
    });
    expect(del.status).toBe(202);

    // A listing that skips b.pdf, as one read while another file is deleted may.
    const counting = countingClient(server.baseUrl, server.demoKey);
    const skipped = before.get('b.pdf')!;
    const client: FileApiClient = {
      ...counting.client,
      async *listAllFiles(q) {
        for await (const f of counting.client.listAllFiles(q)) if (f.id !== skipped) yield f;
      },
    };
    const next = makeEngine(client, { checkBucketAtStart: true }, first.appDir);
    let inSyncWhileGone = false;
    next.engine.on('folder-in-sync', () => {
      const a = next.engine.listFiles({}).find((r) => r.name === 'a.pdf');
      if (a?.remoteId === before.get('a.pdf')) inSyncWhileGone = true;
    });
    try {
      await next.engine.start();
      await until('a.pdf live again', () =>
        next.engine
          .listFiles({ state: 'LIVE' })
          .some((r) => r.name === 'a.pdf' && r.remoteId !== before.get('a.pdf')),
      );
      const rows = new Map(next.engine.listFiles({ state: 'LIVE' }).map((r) => [r.name, r.remoteId!]));
      expect(rows.get('b.pdf')).toBe(skipped);
      expect(rows.get('c.pdf')).toBe(before.get('c.pdf'));
      expect(counting.count('GET', `/files/${skipped}`)).toBe(1);
      expect(counting.count('POST', '/files')).toBe(1);
      expect(inSyncWhileGone).toBe(false);
      expect(next.engine.activity().some((x) => /^a\.pdf was deleted on the service/.test(x.message))).toBe(
        true,
      );
    } finally {
      await next.close();
    }
  }, 60_000);
});
