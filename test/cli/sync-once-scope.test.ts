import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { runCli } from './run-cli';

/**
 * `sync DIR --once` syncs DIR alone (the app's other folders' pending files are not sent), and a
 * folder synced once before (not kept) is not sent again: its files already live in the bucket with
 * the same name, size and md5 are adopted. Counted at the real reference server (POST /files).
 */
describe('sync DIR --once: DIR only, nothing sent twice', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-once-scope-'));
  const dataDir = join(work, 'data');
  const appFolder = join(work, 'app-folder');
  const dir = join(work, 'once');
  let server: RunningServer;
  let env: Record<string, string>;
  const cli = (...args: string[]) =>
    runCli([...args, '--base-url', server.baseUrl, '--data-dir', dataDir, '--json'], env);
  const admin = (method: string, path: string) =>
    fetch(`${server.baseUrl}/__admin/v1${path}`, { method, headers: { 'x-admin-token': server.adminToken } });
  /** POST /files (uploads) that reached the server since the last call. */
  const uploadsSinceLast = async () => {
    const r = (await (await admin('GET', '/requests')).json()) as { by_route: Record<string, number> };
    await admin('DELETE', '/requests');
    return r.by_route['POST /files'] ?? 0;
  };
  const liveUrls = (lines: Record<string, unknown>[]) =>
    new Map(
      lines
        .filter((l) => l.event === 'file' && l.to === 'LIVE')
        .map((l) => [String(l.name), String(l.remoteUrl)] as const),
    );

  beforeAll(async () => {
    server = await startReferenceServer({ dataDir: join(work, 'server') });
    env = { ASSETS_API_KEY: String(server.demo?.api_key) };
    mkdirSync(appFolder);
    mkdirSync(dir);
    writeFileSync(join(appFolder, 'app-0.txt'), 'app file 0');
    const first = await cli('sync', appFolder, '--once', '--keep');
    expect(first.code, first.stderr).toBe(0);
    // Written while no engine runs: pending in the app's folder until the app (or a run of it) syncs them.
    for (let i = 1; i <= 5; i++) writeFileSync(join(appFolder, `app-${i}.txt`), `app file ${i}`);
    for (let i = 1; i <= 3; i++) writeFileSync(join(dir, `once-${i}.txt`), `x${'y'.repeat(i * 1000)}`);
    await uploadsSinceLast();
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("sends DIR's files and none of the other folder's pending files", async () => {
    const r = await cli('sync', dir, '--once');
    expect(r.code, r.stderr).toBe(0);
    expect(await uploadsSinceLast()).toBe(3);
  });

  it('a second --once on the same folder sends nothing: each file is LIVE with its first URL', async () => {
    await uploadsSinceLast();
    const folder = join(work, 'twice');
    mkdirSync(folder);
    for (let i = 1; i <= 4; i++)
      writeFileSync(join(folder, `t-${i}.txt`), `twice ${i} ${'z'.repeat(i * 500)}`);
    const one = await cli('sync', folder, '--once');
    expect(one.code, one.stderr).toBe(0);
    expect(await uploadsSinceLast()).toBe(4);
    const urls = liveUrls(one.lines);
    expect(urls.size).toBe(4);

    const two = await cli('sync', folder, '--once');
    expect(two.code, two.stderr).toBe(0);
    expect(await uploadsSinceLast()).toBe(0);
    expect(liveUrls(two.lines)).toEqual(urls);
    expect(two.lines.find((l) => l.event === 'summary')?.counts).toMatchObject({ LIVE: 4 });
  });
});
