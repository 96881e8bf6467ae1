import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { createFileApiClient } from '../../src-main/core/service/file-api-client';
import { syncedFiles } from '../../src-main/core/sync/state/synced-files';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

/**
 * A watched folder's file deleted through the API behind the app's back (a script, the dashboard,
 * another install): the app's index keeper sees the listing count one file less, finds which, and the
 * folder sends it again, Activity saying it was deleted on the service. Before, the row stayed LIVE
 * over a URL answering 410 for good. The real app core and its sandbox; the keeper's interval short.
 */
describe('a live row answers to the service', () => {
  // The local file is the source in both folder modes: a mirror folder sends it again too.
  it.each(['upload-only', 'mirror'] as const)(
    '%s: a file deleted elsewhere is noticed within the keeper cadence and sent again',
    {
      timeout: 90_000,
    },
    async (mode) => {
      const root = mkdtempSync(join(tmpdir(), 'deleted-elsewhere-'));
      const folder = join(root, 'docs');
      mkdirSync(folder);
      for (const n of ['one.pdf', 'two.pdf', 'three.pdf']) writeFileSync(join(folder, n), `%PDF ${n}`);
      const app = await createAppService({
        dataDir: join(root, 'data'),
        secrets: memorySecrets(),
        env: {},
        engine: { stabilityMs: 100 },
        indexRefreshEveryMs: 3_000,
        log: () => {},
      });
      try {
        expect((await app.call('session.useSandbox', {})).ok).toBe(true);
        expect((await app.call('sync.folders.add', { path: folder, bucket: `docs-${mode}`, mode })).ok).toBe(
          true,
        );
        const rows = () => syncedFiles(app.context.db).liveFiles();
        await untilEvent(app, 'three files live and indexed', async () => {
          const s = await app.call('files.index.summary', {});
          return rows().length === 3 && s.ok && s.value.status.complete && s.value.count === 3;
        });
        const victim = rows().find((r) => r.name === 'two.pdf')!;

        // Someone else deletes it, with the same key, through another client: the app sees no reply.
        const c = app.context.session.live!.connection;
        const other = createFileApiClient({ baseUrl: c.baseUrl, apiKey: c.apiKey });
        expect((await other.deleteFile(victim.remoteId)).ok).toBe(true);
        expect((await fetch(victim.remoteUrl)).status).toBeGreaterThanOrEqual(400);

        await untilEvent(app, 'two.pdf sent again', () => {
          const again = rows().find((r) => r.name === 'two.pdf');
          return again !== undefined && again.remoteId !== victim.remoteId;
        });
        const again = rows().find((r) => r.name === 'two.pdf')!;
        expect((await fetch(again.remoteUrl)).status).toBe(200);
        const activity = await app.call('activity.list', { limit: 20 });
        expect(
          activity.ok &&
            activity.value.some((a) =>
              /^two\.pdf was deleted on the service \(seen .*\); sending it again/.test(a.message),
            ),
        ).toBe(true);
      } finally {
        await app.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});

describe('what the Files view learns, the folder knows (issue 31)', () => {
  // The middle one by id: the listing's page drops it by the range rule, a read with no 410 in it (a
  // 410 or a delete reaches the folders through the client's replies already). The newest: outside
  // every page's range, only the listing's count says it went, and the Refresh finds which at once.
  it.each([
    ['the middle', 1],
    ['the newest', 2],
  ] as const)(
    'a Refresh that finds %s file gone leaves no Live row on it by the time it answers',
    { timeout: 90_000 },
    async (_, at) => {
      const root = mkdtempSync(join(tmpdir(), 'deleted-refresh-'));
      const folder = join(root, 'docs');
      mkdirSync(folder);
      for (const n of ['one.pdf', 'two.pdf', 'three.pdf']) writeFileSync(join(folder, n), `%PDF ${n}`);
      const app = await createAppService({
        dataDir: join(root, 'data'),
        secrets: memorySecrets(),
        env: {},
        engine: { stabilityMs: 100 },
        // The keeper stays out of it: only the person's Refresh reads the listing.
        indexRefreshEveryMs: 3_600_000,
        log: () => {},
      });
      try {
        expect((await app.call('session.useSandbox', {})).ok).toBe(true);
        expect(
          (await app.call('sync.folders.add', { path: folder, bucket: 'docs', mode: 'upload-only' })).ok,
        ).toBe(true);
        const rows = () => syncedFiles(app.context.db).liveFiles();
        await untilEvent(app, 'three files live and indexed', async () => {
          const s = await app.call('files.index.summary', {});
          return rows().length === 3 && s.ok && s.value.status.complete && s.value.count === 3;
        });
        const victim = [...rows()].sort((a, b) => a.remoteId - b.remoteId)[at]!;
        const c = app.context.session.live!.connection;
        const other = createFileApiClient({ baseUrl: c.baseUrl, apiKey: c.apiKey });
        expect((await other.deleteFile(victim.remoteId)).ok).toBe(true);

        const r = await app.call('files.index.refresh', {});
        expect(r.ok).toBe(true);
        const s = await app.call('files.index.summary', {});
        expect(s.ok && s.value.count).toBe(2);
        // At the moment the index answers without it, the folder has no Live row on the dead link.
        expect(rows().map((x) => x.remoteId)).not.toContain(victim.remoteId);
        const overview = await app.call('sync.overview', {});
        expect(overview.ok && overview.value.folders[0]!.counts.live).toBeLessThanOrEqual(2);
        await untilEvent(app, `${victim.name} sent again`, () =>
          rows().some((x) => x.name === victim.name && x.remoteId !== victim.remoteId),
        );
      } finally {
        await app.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
  );
});
