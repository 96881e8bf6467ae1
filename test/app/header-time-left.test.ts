import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { timeLeftText } from '../../src-shared/domain/words';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

// Issue 31: the Folders header's time left is the overview's, and the overview went out only when a
// file changed state: during one long upload the header kept the figure of its first instant (the
// estimate's app benchmark: "8 s left" for the whole of an 8 s upload, "no figure" for 190 MiB).
describe("the header's time left follows the upload", () => {
  const root = mkdtempSync(join(tmpdir(), 'app-header-eta-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('one file of 1 MiB at 256 KiB/s: the overview says the time left as it goes down', async () => {
    const folder = join(root, 'folder');
    mkdirSync(folder);
    const file = join(folder, 'clip.txt');
    writeFileSync(file, Buffer.alloc(1024 * 1024, 'x'));
    const past = new Date(Date.now() - 60_000);
    utimesSync(file, past, past);
    const app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
      engine: { stabilityMs: 0 },
    });
    try {
      expect((await app.call('session.useSandbox', {})).ok).toBe(true);
      expect((await app.call('settings.update', { bwlimit: '256k' })).ok).toBe(true);
      const said: string[] = [];
      let live = false;
      const off = app.subscribe((e) => {
        if (e.event !== 'sync.changed') return;
        const s = e.payload.etaSeconds;
        if (s != null && e.payload.etaBound) said.push(`${timeLeftText(s)} (${e.payload.etaBound})`);
        if (e.payload.folders[0]?.counts.live === 1) live = true;
      });
      const done = untilEvent(app, 'the file live', () => live);
      expect((await app.call('sync.folders.add', { path: folder, bucket: 'eta' })).ok).toBe(true);
      await done;
      off();
      // About four seconds of sending: the header heard "4 s", "3 s", "2 s"... not one figure.
      expect(new Set(said).size, said.join(', ')).toBeGreaterThanOrEqual(3);
    } finally {
      await app.close();
    }
  });
});
