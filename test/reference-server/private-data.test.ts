import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { startReferenceServer } from '../../src-main/reference-server/server';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

it('keeps its data folder 0700 and its database 0600 (the signing secrets are in it), tightening an old 0755 folder', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ref-private-'));
  const umask = process.umask(0o022);
  try {
    const dataDir = join(root, 'data');
    const first = await startReferenceServer({ dataDir });
    expect(first.demo?.signing_secret).toBeTruthy();
    await first.close();
    // As an older version left it: the folder that holds the database is tightened at the next start.
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'objects'), 0o755);
    chmodSync(join(dataDir, 'reference-server.sqlite'), 0o644);
    const server = await startReferenceServer({ dataDir });
    try {
      expect({
        dir: modeOf(dataDir),
        objects: modeOf(join(dataDir, 'objects')),
        db: modeOf(join(dataDir, 'reference-server.sqlite')),
        wal: modeOf(join(dataDir, 'reference-server.sqlite-wal')),
      }).toEqual({ dir: '700', objects: '700', db: '600', wal: '600' });
    } finally {
      await server.close();
    }
  } finally {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
  }
});
