import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { type CliRun, runCli } from './run-cli';

/**
 * `sync DIR --once` beside a folder the app already syncs: it reports DIR only (its summary counts DIR's
 * files), leaves the app's folder list as it was unless --keep, says which, and its JSON lines never
 * show more bytes sent than in all, nor a file going from NEW to NEW. The real CLI and reference server.
 */
describe('sync DIR --once', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-sync-once-'));
  const dataDir = join(work, 'data');
  const appFolder = join(work, 'app-folder');
  const dir = join(work, 'once');
  let server: RunningServer;
  let env: Record<string, string>;
  const cli = (...args: string[]) =>
    runCli([...args, '--base-url', server.baseUrl, '--data-dir', dataDir, '--json'], env);
  const folders = async () =>
    (await cli('status')).lines.filter((l) => l.event === 'folder').map((l) => l.path);
  const summaryOf = (r: CliRun) => r.lines.find((l) => l.event === 'summary')!;

  beforeAll(async () => {
    server = await startReferenceServer({ dataDir: join(work, 'server') });
    env = { ASSETS_API_KEY: String(server.demo?.api_key) };
    mkdirSync(appFolder);
    mkdirSync(dir);
    for (let i = 1; i <= 7; i++) writeFileSync(join(appFolder, `app-${i}.txt`), `app file ${i}`);
    for (let i = 1; i <= 3; i++) writeFileSync(join(dir, `once-${i}.txt`), `x${'y'.repeat(i * 1000)}`);
    // The app's own folder, synced and kept (as the app's Folders view would have it).
    const first = await cli('sync', appFolder, '--once', '--keep');
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('counts and reports DIR only, and leaves the folder list as it was', async () => {
    const r = await cli('sync', dir, '--once');
    expect(r.code, r.stderr).toBe(0);
    const summary = summaryOf(r);
    expect(summary.counts).toMatchObject({ LIVE: 3 });
    expect(summary).toMatchObject({ allDone: true, folder: dir, kept: false });
    const names = r.lines.filter((l) => l.event === 'file').map((l) => l.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((n) => String(n).startsWith('once-'))).toBe(true);
    expect(await folders()).toEqual([appFolder]);
  });

  it("with --keep, DIR joins the app's folders, and the summary says so", async () => {
    const r = await cli('sync', dir, '--once', '--keep');
    expect(r.code, r.stderr).toBe(0);
    expect(summaryOf(r)).toMatchObject({ kept: true, folder: dir });
    expect((await folders()).sort()).toEqual([appFolder, dir].sort());
  });

  it('no progress line shows more bytes sent than in all, and no file goes from NEW to NEW', async () => {
    const fresh = join(work, 'fresh');
    mkdirSync(fresh);
    for (let i = 1; i <= 4; i++) writeFileSync(join(fresh, `f-${i}.txt`), `${i}`.repeat(4 + i * 2048));
    const r = await cli('sync', fresh, '--once');
    expect(r.code, r.stderr).toBe(0);
    const progress = r.lines.filter((l) => l.event === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p.bytesSent as number).toBeLessThanOrEqual(p.bytesTotal as number);
    const files = r.lines.filter((l) => l.event === 'file');
    expect(files.filter((f) => f.from === 'NEW' && f.to === 'NEW')).toEqual([]);
    // Each file is announced when first seen (from null), then moves on.
    expect(files.filter((f) => f.from === null)).toHaveLength(4);
  });

  it('--keep without --once is a usage error that says why', async () => {
    const r = await cli('sync', dir, '--keep');
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('--keep goes with --once');
  });
});
