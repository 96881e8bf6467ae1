import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAppService } from '../../src-main/core/app/app-service';
import { startRelay } from '../../src-main/relay/relay-server';
import { runCli } from '../cli/run-cli';
import { memorySecrets } from '../support/secrets';

// The app's data folder holds leads' names, emails and phones (app.sqlite) and the sandbox's data
// (reference-server.sqlite, with the demo bot's signing secret): nobody but its owner may read it,
// whatever the umask, and a folder made by an older version is tightened at start.
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

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

describe('the data folder is private', () => {
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

describe("a data folder that is not the app's is never chmod'ed", () => {
  const isRoot = process.getuid?.() === 0;
  const modeOf4 = (path: string) => (statSync(path).mode & 0o7777).toString(8);

  it("a shared folder (1777, another user's file in it) is refused by the app and every command, its mode kept", async () => {
    root = mkdtempSync(join(tmpdir(), 'shared-data-'));
    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    writeFileSync(join(shared, 'theirs.txt'), 'not yours');
    if (isRoot) chownSync(join(shared, 'theirs.txt'), 65534, 65534);
    await expect(
      createAppService({ dataDir: shared, secrets: memorySecrets(), env: {}, log: () => {} }),
    ).rejects.toThrow(/DATA-DIR-SHARED.*shared/);
    // Every command opens the data folder the same way (openLocalState): one that only reads.
    const r = await runCli(['status', '--data-dir', shared]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('DATA-DIR-SHARED');
    expect(r.stderr).toContain(shared);
    // Nothing is written into it either: the encrypted secrets file the environment asks for was
    // made there before the folder was refused (issue 32).
    const filed = await runCli(['status', '--data-dir', shared], {
      ASSETS_SECRET_STORE: 'file',
      ASSETS_SECRETS_PASSPHRASE: 'a passphrase long enough',
    });
    expect(filed.stderr).toContain('DATA-DIR-SHARED');
    // The relay refuses it too, rather than chmod'ing it 0700 under everyone.
    await expect(startRelay({ dataDir: shared, port: 0, log: () => {} })).rejects.toThrow(/DATA-DIR-SHARED/);
    expect(modeOf4(shared)).toBe('1777');
    expect(readdirSync(shared)).toEqual(['theirs.txt']);
  });

  it('a folder owned by another user is refused and left as it was', async () => {
    root = mkdtempSync(join(tmpdir(), 'foreign-data-'));
    const foreign = join(root, 'theirs');
    mkdirSync(foreign);
    chmodSync(foreign, 0o755);
    // As root, a folder handed to uid 65534; as anyone else, the root-owned folder of the system.
    const dir = isRoot ? foreign : '/';
    if (isRoot) chownSync(foreign, 65534, 65534);
    const before = modeOf4(dir);
    const r = await runCli(['status', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('DATA-DIR-FOREIGN');
    expect(modeOf4(dir)).toBe(before);
    expect(existsSync(join(dir, 'app.sqlite'))).toBe(false);
  });

  it('a folder of yours without the database keeps its mode; what the app makes in it is 0700', async () => {
    root = mkdtempSync(join(tmpdir(), 'own-data-'));
    const own = join(root, 'mine');
    mkdirSync(own);
    chmodSync(own, 0o755);
    const source = join(root, 'photo.png');
    writeFileSync(source, 'png bytes');
    const app = await createAppService({ dataDir: own, secrets: memorySecrets(), env: {}, log: () => {} });
    try {
      expect(await app.call('session.useSandbox', {})).toMatchObject({ ok: true });
      expect(await app.call('files.uploadPaths', { paths: [source], bucket: 'drops' })).toMatchObject({
        ok: true,
      });
    } finally {
      await app.close();
    }
    expect(modeOf4(own)).toBe('755');
    for (const sub of ['sandbox', 'sandbox/objects', 'dropped', 'dropped/drops'])
      expect([sub, modeOf(join(own, sub))]).toEqual([sub, '700']);
  });

  it('status, which only reads, changes no mode of an older data folder; sync, which writes, tightens it', async () => {
    root = mkdtempSync(join(tmpdir(), 'readonly-data-'));
    const dataDir = join(root, 'assets-sync');
    await startAndUseSandbox(dataDir);
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'sandbox'), 0o755);
    chmodSync(join(dataDir, 'app.sqlite'), 0o644);
    const modes = () => [
      modeOf(dataDir),
      modeOf(join(dataDir, 'sandbox')),
      modeOf(join(dataDir, 'app.sqlite')),
    ];
    for (const command of ['status', 'account']) {
      const r = await runCli([command, '--data-dir', dataDir]);
      expect(r.code, r.stderr).toBe(0);
      expect(modes(), command).toEqual(['755', '755', '644']);
    }
    const empty = join(root, 'empty');
    mkdirSync(empty);
    const r = await runCli(['sync', empty, '--once', '--data-dir', dataDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(modes()).toEqual(['700', '700', '600']);
  }, 60_000);
});
