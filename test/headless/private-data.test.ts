import { chmodSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import type { SecretStore } from '../../src-main/core/secrets/keychain';

// The app's data folder holds leads' names, emails and phones (app.sqlite) and the sandbox's data
// (reference-server.sqlite, with the demo bot's signing secret): nobody but its owner may read it,
// whatever the umask, and a folder made by an older version is tightened at start.
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

function memorySecrets(): SecretStore {
  const m = new Map<string, string>();
  return {
    get: (a) => m.get(a) ?? null,
    set: (a, s) => void m.set(a, s),
    delete: (a) => m.delete(a),
  };
}

async function startAndUseSandbox(dataDir: string) {
  const app = await createAppService({ dataDir, secrets: memorySecrets(), env: {}, log: () => {} });
  try {
    const r = await app.call('session.useSandbox', {});
    expect(r).toMatchObject({ ok: true });
    const modes: Record<string, string> = {};
    for (const name of [
      '.',
      'app.sqlite',
      'app.sqlite-wal',
      'app.sqlite-shm',
      'sandbox',
      'sandbox/reference-server.sqlite',
      'sandbox/reference-server.sqlite-wal',
      'sandbox/reference-server.sqlite-shm',
      'sandbox/objects',
    ])
      if (existsSync(join(dataDir, name))) modes[name] = modeOf(join(dataDir, name));
    return modes;
  } finally {
    await app.close();
  }
}

const PRIVATE = {
  '.': '700',
  'app.sqlite': '600',
  'app.sqlite-wal': '600',
  'app.sqlite-shm': '600',
  sandbox: '700',
  'sandbox/reference-server.sqlite': '600',
  'sandbox/reference-server.sqlite-wal': '600',
  'sandbox/reference-server.sqlite-shm': '600',
  'sandbox/objects': '700',
};

describe('the data folder is private', () => {
  let root: string;
  let umask: number;
  beforeAll(() => {
    // The usual desktop umask, under which files were 0644 and folders 0755.
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is made 0700 with 0600 database files on a first start', async () => {
    root = mkdtempSync(join(tmpdir(), 'private-data-'));
    expect(await startAndUseSandbox(join(root, 'new', 'assets-sync'))).toEqual(PRIVATE);
  });

  it('is tightened at start when an older version left it 0755 with 0644 files', async () => {
    root = mkdtempSync(join(tmpdir(), 'private-data-'));
    const dataDir = join(root, 'assets-sync');
    await startAndUseSandbox(dataDir);
    // As an older version left it: folders 0755, database files 0644 (a WAL and index too).
    for (const dir of ['.', 'sandbox', 'sandbox/objects']) chmodSync(join(dataDir, dir), 0o755);
    for (const file of ['app.sqlite', 'sandbox/reference-server.sqlite'])
      for (const suffix of ['', '-wal', '-shm']) {
        const path = join(dataDir, `${file}${suffix}`);
        if (!existsSync(path)) writeFileSync(path, '');
        chmodSync(path, 0o644);
      }
    expect(await startAndUseSandbox(dataDir)).toEqual(PRIVATE);
  });
});
