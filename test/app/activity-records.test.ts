import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppService } from '../../src-main/core/app/app-service';
import type { ActivityItem } from '../../src-shared/contract';
import { appOnSandbox } from './sandbox-app';

/** Resolves with the first activity line whose message matches, as the page would receive it. */
function nextActivity(app: AppService, match: RegExp): Promise<ActivityItem> {
  return new Promise((resolve) => {
    const off = app.subscribe((e) => {
      if (e.event === 'activity.added' && match.test(e.payload.message)) {
        off();
        resolve(e.payload);
      }
    });
  });
}

// Issue 23: Activity records what happened, also when the app (not the engine) did it.
describe('the activity log records storage failures and recovery, a URL import and a bulk delete', () => {
  let root: string;
  let app: AppService;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'activity-'));
    app = await appOnSandbox(root);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('a storage failure is one line, and its recovery another', async () => {
    expect((await app.call('sandbox.faults', { storageFailRate: 1 })).ok).toBe(true);
    const failed = nextActivity(app, /could not store/);
    const dir = join(root, 'site');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.txt'), 'a\n');
    expect((await app.call('sync.folders.add', { path: dir, bucket: 'site' })).ok).toBe(true);
    const f = await failed;
    expect(f.message).toBe(
      'The service could not store a.txt (STORAGE-FAILED); it and any others are retried automatically.',
    );
    expect(f.level).toBe('error');
    expect((await app.call('sandbox.faults', { storageFailRate: 0 })).ok).toBe(true);
    const back = nextActivity(app, /stores files again/);
    const q = await app.call('sync.queue', {});
    if (!q.ok) throw new Error(q.error.message);
    const row = q.value.problems.find((p) => p.name === 'a.txt');
    expect(row).toBeDefined();
    expect((await app.call('sync.retry', { fileId: row!.fileId })).ok).toBe(true);
    expect((await back).message).toMatch(
      /^The service stores files again: a\.txt went up after \d+ failed uploads?\.$/,
    );
  });

  it('a URL import says what it did, failures counted', async () => {
    const line = nextActivity(app, /^Imported from a list of links/);
    const r = await app.call('urlImport.run', {
      name: 'links.txt',
      text: 'not a link\nftp://example.invalid/x.pdf\n',
    });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const a = await line;
    expect(a.message).toBe('Imported from a list of links (links.txt): 0 of 2 lines uploaded, 2 failed.');
    expect(a.level).toBe('error');
  });

  it('a bulk delete says how many files went', async () => {
    await app.call('files.index.refresh', {});
    const line = nextActivity(app, /^Deleted /);
    // The file came from a watched folder: the delete asks what that folder does with it.
    const unsaid = await app.call('files.bulkDelete.start', { filter: {}, except: [] });
    expect(unsaid.ok ? '' : unsaid.error.code).toBe('FOLDER-FILES-CHOICE');
    const job = await app.call('files.bulkDelete.start', {
      filter: {},
      except: [],
      folderFiles: 'stop-syncing',
    });
    expect(job.ok, JSON.stringify(job)).toBe(true);
    expect((await line).message).toMatch(/^Deleted 1 file \(2 B\) from the service\.$/);
    const list = await app.call('activity.list', {});
    expect(list.ok && list.value.some((x) => x.message.startsWith('Deleted 1 file'))).toBe(true);
  });
});
