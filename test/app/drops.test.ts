import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { memorySecrets } from '../support/secrets';

// files.uploadPaths copies what it is given into the app's dropped folder: a link that leaves the
// folder it was given in is refused by the scan's rule, and nothing outside is read.
describe('files dropped by path', () => {
  const root = mkdtempSync(join(tmpdir(), 'drops-'));
  const dataDir = join(root, 'data');
  const outside = join(root, 'outside');
  const given = join(root, 'given');
  const dropped = join(dataDir, 'dropped', 'drops');
  let app: AppService;
  beforeAll(async () => {
    mkdirSync(outside);
    mkdirSync(join(given, 'sub'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'the password is swordfish');
    writeFileSync(join(given, 'real.txt'), 'real');
    symlinkSync('real.txt', join(given, 'inside.txt'));
    symlinkSync(join(outside, 'secret.txt'), join(given, 'out.txt'));
    symlinkSync('../../outside/secret.txt', join(given, 'sub', 'relative.txt'));
    app = await createAppService({ dataDir, secrets: memorySecrets(), env: {}, log: () => {} });
    expect((await app.call('session.useSandbox', {})).ok).toBe(true);
  });
  afterAll(async () => {
    await app.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('takes files and links that stay in their folder', async () => {
    const r = await app.call('files.uploadPaths', {
      paths: [join(given, 'real.txt'), join(given, 'inside.txt')],
      bucket: 'drops',
    });
    expect(r).toEqual({ ok: true, value: { queued: 2 } });
    expect(readdirSync(dropped).sort()).toEqual(['inside.txt', 'real.txt']);
    expect(readFileSync(join(dropped, 'inside.txt'), 'utf8')).toBe('real');
  });

  it('refuses a link out of its folder, absolute or relative, naming where it points; nothing of a refused drop is taken', async () => {
    const before = readdirSync(dropped).sort();
    for (const link of [join(given, 'out.txt'), join(given, 'sub', 'relative.txt')]) {
      const r = await app.call('files.uploadPaths', {
        paths: [join(given, 'real.txt'), link],
        bucket: 'drops',
      });
      expect(r).toMatchObject({ ok: false, error: { code: 'LINK-OUTSIDE-FOLDER' } });
      expect(!r.ok && r.error.message).toContain(join(outside, 'secret.txt'));
    }
    expect(readdirSync(dropped).sort()).toEqual(before);
    for (const name of readdirSync(dropped))
      expect(readFileSync(join(dropped, name), 'utf8')).not.toContain('swordfish');
  });

  it("moves only the shell's own copies: a path that climbs out of incoming/ is copied, never moved", async () => {
    mkdirSync(join(dataDir, 'incoming'), { recursive: true });
    writeFileSync(join(dataDir, 'notes.txt'), 'mine');
    const r = await app.call('files.uploadPaths', {
      // As sent (join() would resolve the '..' away before the app saw it).
      paths: [`${dataDir}/incoming/../notes.txt`],
      bucket: 'drops',
    });
    expect(r).toEqual({ ok: true, value: { queued: 1 } });
    expect(existsSync(join(dataDir, 'notes.txt'))).toBe(true);
    expect(readFileSync(join(dropped, 'notes.txt'), 'utf8')).toBe('mine');
  });
});
