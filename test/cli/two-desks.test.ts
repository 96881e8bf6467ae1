import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { runCli } from './run-cli';

/**
 * Two desks on one account (issue 18): two CLI processes, each with its own data folder, talking to
 * one real reference server with the same key. A live row answers to the service: a file deleted
 * through the API is noticed by the next `sync DIR --once` and sent again; a file desk B adopted from
 * desk A's upload, deleted by A's mirror folder, is B's again after B's next run, once, and that run
 * never says the folder is in sync before B's copy is live.
 */
describe('two desks, one account', () => {
  const work = mkdtempSync(join(tmpdir(), 'cli-two-desks-'));
  const deskA = join(work, 'desk-a');
  const deskB = join(work, 'desk-b');
  let server: RunningServer;
  let key: string;
  const cli = (data: string, ...args: string[]) =>
    runCli([...args, '--base-url', server.baseUrl, '--data-dir', data, '--json'], { ASSETS_API_KEY: key });
  const api = (method: string, path: string) =>
    fetch(`${server.baseUrl}/api/assets/v1${path}`, { method, headers: { authorization: `Bearer ${key}` } });
  /** The live files of a bucket named `name`, as the service lists them. */
  const listed = async (bucket: string, name: string) => {
    const r = (await (await api('GET', `/files?bucket=${bucket}&per_page=100`)).json()) as {
      data: { id: number; name: string; url: string }[];
    };
    return r.data.filter((f) => f.name === name);
  };
  const liveEvents = (lines: Record<string, unknown>[], name: string) =>
    lines.filter((l) => l.event === 'file' && l.to === 'LIVE' && l.name === name);

  beforeAll(async () => {
    server = await startReferenceServer({ dataDir: join(work, 'server'), ratePerMinute: 0 });
    key = String(server.demo?.api_key);
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('a file deleted through the API is noticed by the next sync --once and sent again', async () => {
    const dir = join(work, 'reports');
    mkdirSync(dir);
    writeFileSync(join(dir, 'a.pdf'), '%PDF a');
    writeFileSync(join(dir, 'b.pdf'), '%PDF b');
    const first = await cli(deskA, 'sync', dir, '--bucket', 'reports', '--once', '--keep');
    expect(first.code, first.stderr).toBe(0);
    const [a] = await listed('reports', 'a.pdf');
    expect(a).toBeDefined();

    // A script (or the dashboard) deletes it; this desk's rows still say LIVE.
    expect((await api('DELETE', `/files/${a!.id}`)).status).toBe(202);
    const again = await cli(deskA, 'sync', dir, '--once');
    expect(again.code, again.stderr).toBe(0);
    const now = await listed('reports', 'a.pdf');
    expect(now).toHaveLength(1);
    expect(now[0]!.id).not.toBe(a!.id);
    expect((await fetch(now[0]!.url)).status).toBe(200);
    expect(liveEvents(again.lines, 'a.pdf').at(-1)?.remoteUrl).toBe(now[0]!.url);
    expect(again.stdout + again.stderr).toMatch(/a\.pdf was deleted on the service/);
    // b.pdf was not touched: the same copy.
    expect(liveEvents(again.lines, 'b.pdf')).toHaveLength(0);
  }, 120_000);

  it("desk B's adopted copy, deleted by desk A's mirror folder, is B's own after B's next run", async () => {
    const a = join(work, 'a-shared');
    const b = join(work, 'b-shared');
    mkdirSync(a);
    mkdirSync(b);
    writeFileSync(join(a, 'x.pdf'), '%PDF the same bytes on both desks');
    writeFileSync(join(b, 'x.pdf'), '%PDF the same bytes on both desks');
    const fromA = await cli(deskA, 'sync', a, '--bucket', 'shared', '--mirror', '--once', '--keep');
    expect(fromA.code, fromA.stderr).toBe(0);
    const fromB = await cli(deskB, 'sync', b, '--bucket', 'shared', '--once', '--keep');
    expect(fromB.code, fromB.stderr).toBe(0);
    // B adopted A's upload: one copy on the service.
    const [shared] = await listed('shared', 'x.pdf');
    expect(await listed('shared', 'x.pdf')).toHaveLength(1);

    // A deletes its file; its mirror folder deletes the copy both desks pointed at.
    unlinkSync(join(a, 'x.pdf'));
    const deleted = await cli(deskA, 'sync', a, '--once');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await listed('shared', 'x.pdf')).toHaveLength(0);
    expect((await fetch(shared!.url)).status).toBeGreaterThanOrEqual(400);

    // B's next run notices and sends its own; it does not call the folder in sync before that.
    const next = await cli(deskB, 'sync', b, '--once');
    expect(next.code, next.stderr).toBe(0);
    const mine = await listed('shared', 'x.pdf');
    expect(mine).toHaveLength(1);
    expect((await fetch(mine[0]!.url)).status).toBe(200);
    const inSync = next.lines.findIndex((l) => l.event === 'folder-in-sync');
    const live = next.lines.findIndex((l) => l.event === 'file' && l.to === 'LIVE' && l.name === 'x.pdf');
    expect(live).toBeGreaterThanOrEqual(0);
    if (inSync >= 0) expect(inSync).toBeGreaterThan(live);

    // At most one copy per desk: a run after that sends nothing.
    const quiet = await cli(deskB, 'sync', b, '--once');
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(await listed('shared', 'x.pdf')).toHaveLength(1);
    expect(liveEvents(quiet.lines, 'x.pdf').filter((l) => l.from !== 'LIVE')).toHaveLength(0);
  }, 180_000);
});
