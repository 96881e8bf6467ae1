import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { runCli } from '../cli/run-cli';
import { type DeskProcess, killLeftDesks, newKeys, startDeskProcess } from './desk-processes';

/**
 * Discovery among separate `assets-sync sync` processes of one machine, each path on its own: the local
 * folder fallback alone, and DNS-SD over mDNS alone (multicast on the loopback and the machine's
 * interfaces). Three desks, each with its own data folder and key, find each other and agree on one holder;
 * every file goes live.
 */
describe('desks on one machine find each other', () => {
  const work = mkdtempSync(join(tmpdir(), 'office-one-machine-'));
  let server: RunningServer;
  let keys: string[];

  beforeAll(async () => {
    server = await startReferenceServer({ dataDir: join(work, 'server'), ratePerMinute: 600 });
    keys = await newKeys(server, 3);
  });
  afterAll(async () => {
    killLeftDesks();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const path of ['local', 'mdns'] as const) {
    it(`through ${path === 'local' ? 'the local folder fallback' : 'DNS-SD over mDNS'} alone`, async () => {
      const desks: DeskProcess[] = keys.map((apiKey, i) =>
        startDeskProcess({
          work,
          name: `${path}-${i}`,
          baseUrl: server.baseUrl,
          apiKey,
          files: 3,
          env: { ASSETS_SYNC_OFFICE_DISCOVERY: path, ASSETS_SYNC_OFFICE_DIR: join(work, `office-${path}`) },
        }),
      );
      try {
        await Promise.all(desks.map((d) => d.sees(3)));
        // One holder: the others follow it.
        await new Promise((r) => setTimeout(r, 1_500));
        const holders = desks.filter((d) => d.office.at(-1)?.holder === 'self');
        expect(holders.length).toBe(1);
        for (const d of desks) expect(d.office.at(-1)).toMatchObject({ mode: 'office', desks: 3 });
        // `assets-sync status` of a desk's data folder says the same, from the file the running desk writes.
        const status = await runCli(['status', '--json', '--data-dir', join(work, `${path}-0`, 'data')]);
        const office = status.lines.find((l) => l.event === 'office');
        expect(office).toMatchObject({ running: true, mode: 'office', desks: 3 });
        expect(office?.peers).toHaveLength(3);
        expect(office?.sharePerMinute).toBeGreaterThan(0);
        while (desks.some((d) => d.live < 3)) await new Promise((r) => setTimeout(r, 100));
      } finally {
        await Promise.all(desks.map((d) => d.stop()));
      }
      for (const d of desks) expect(d.live, d.stderr.slice(-500)).toBe(3);
    }, 60_000);
  }
  it('a keyed office (ASSETS_OFFICE_KEY) admits only desks with its key; `status` says it is keyed, and what it refused from where', async () => {
    const office = join(work, 'office-keyed');
    const desks: DeskProcess[] = keys.map((apiKey, i) =>
      startDeskProcess({
        work,
        name: `keyed-${i}`,
        baseUrl: server.baseUrl,
        apiKey,
        files: 3,
        env: {
          ASSETS_SYNC_OFFICE_DISCOVERY: 'local',
          ASSETS_SYNC_OFFICE_DIR: office,
          // The third desk has no key: a stranger to the other two.
          ...(i < 2 ? { ASSETS_OFFICE_KEY: 'our office of two' } : {}),
        },
      }),
    );
    try {
      await Promise.all(desks.slice(0, 2).map((d) => d.sees(2)));
      const status = await runCli(['status', '--json', '--data-dir', join(work, 'keyed-0', 'data')]);
      await expect
        .poll(async () => {
          const s = await runCli(['status', '--json', '--data-dir', join(work, 'keyed-0', 'data')]);
          return s.lines.find((l) => l.event === 'office') as { refused?: { total: number } } | undefined;
        })
        .toMatchObject({
          keyed: true,
          mode: 'office',
          desks: 2,
          refused: { from: [{ address: '127.0.0.1' }] },
        });
      expect(status.lines.find((l) => l.event === 'office')).toMatchObject({ keyed: true });
      const text = await runCli(['status', '--data-dir', join(work, 'keyed-0', 'data')]);
      expect(text.stdout).toMatch(/Keyed office: only desks given its join code take part/);
      expect(text.stdout).toMatch(/office messages? refused, changing nothing \(from 127\.0\.0\.1: \d+/);
      while (desks.some((d) => d.live < 3)) await new Promise((r) => setTimeout(r, 100));
      // The desk without the key never joined them: alone the whole run.
      expect(desks[2]!.office.every((o) => o.mode !== 'office')).toBe(true);
    } finally {
      await Promise.all(desks.map((d) => d.stop()));
    }
  }, 60_000);
});
