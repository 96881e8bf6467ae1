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
});
