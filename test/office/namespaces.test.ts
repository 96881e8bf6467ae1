import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startReferenceServer } from '../../src-main/reference-server/server';
import { type DeskProcess, killLeftDesks, newKeys, startDeskProcess } from './desk-processes';

/**
 * Discovery among desks in separate network namespaces joined by a bridge (as three machines on one LAN):
 * DNS-SD over mDNS alone (the local folder is off: the namespaces share the file system but not the
 * loopback). Needs root and `ip`; skips with the reason printed otherwise. The namespaces, veths and the
 * bridge are removed afterwards, whatever happened.
 */
function whyNot(): string | null {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return 'not root';
  try {
    execFileSync('ip', ['-V'], { stdio: 'ignore' });
  } catch {
    return 'no `ip` command';
  }
  return null;
}
const reason = whyNot();
if (reason) console.log(`office namespaces test skipped: ${reason}`);

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });

describe.skipIf(reason !== null)(
  'desks in network namespaces joined by a bridge find each other (mDNS)',
  () => {
    const sfx = randomBytes(2).toString('hex');
    const net = `10.${200 + (parseInt(sfx.slice(0, 2), 16) % 50)}.${parseInt(sfx.slice(2), 16)}`;
    const bridge = `asob${sfx}`;
    const spaces = [1, 2, 3].map((i) => ({
      ns: `aso-${sfx}-${i}`,
      inner: `asoi${sfx}${i}`,
      outer: `asoo${sfx}${i}`,
      addr: `${net}.${10 + i}`,
    }));
    const work = mkdtempSync(join(tmpdir(), 'office-netns-'));
    let server: RunningServer;
    let setUp = false;

    beforeAll(async () => {
      ip('link', 'add', bridge, 'type', 'bridge', 'mcast_snooping', '0');
      setUp = true;
      ip('addr', 'add', `${net}.1/24`, 'dev', bridge);
      ip('link', 'set', bridge, 'up');
      for (const s of spaces) {
        ip('netns', 'add', s.ns);
        ip('link', 'add', s.inner, 'type', 'veth', 'peer', 'name', s.outer);
        ip('link', 'set', s.inner, 'netns', s.ns);
        ip('link', 'set', s.outer, 'master', bridge);
        ip('link', 'set', s.outer, 'up');
        ip('netns', 'exec', s.ns, 'ip', 'link', 'set', 'lo', 'up');
        ip('netns', 'exec', s.ns, 'ip', 'addr', 'add', `${s.addr}/24`, 'dev', s.inner);
        ip('netns', 'exec', s.ns, 'ip', 'link', 'set', s.inner, 'up');
        ip('netns', 'exec', s.ns, 'ip', 'route', 'add', '224.0.0.0/4', 'dev', s.inner);
      }
      server = await startReferenceServer({
        dataDir: join(work, 'server'),
        host: `${net}.1`,
        ratePerMinute: 600,
      });
    });
    afterAll(async () => {
      killLeftDesks();
      await server?.close();
      if (setUp) {
        for (const s of spaces) {
          try {
            ip('netns', 'del', s.ns);
          } catch {
            // not made
          }
        }
        try {
          ip('link', 'del', bridge);
        } catch {
          // not made
        }
      }
      rmSync(work, { recursive: true, force: true });
    });

    it('three desks, one per namespace, see three desks and one holder', async () => {
      const keys = await newKeys(server, 3);
      const desks: DeskProcess[] = spaces.map((s, i) =>
        startDeskProcess({
          work,
          name: s.ns,
          baseUrl: server.baseUrl,
          apiKey: keys[i]!,
          files: 2,
          prefix: ['ip', 'netns', 'exec', s.ns],
          env: {
            ASSETS_SYNC_OFFICE_DISCOVERY: 'mdns',
            ASSETS_SYNC_OFFICE_HOST: s.addr,
            ASSETS_SYNC_OFFICE_DIR: join(work, 'office'),
          },
        }),
      );
      try {
        await Promise.all(desks.map((d) => d.sees(3)));
        await new Promise((r) => setTimeout(r, 1_500));
        expect(desks.filter((d) => d.office.at(-1)?.holder === 'self').length).toBe(1);
        while (desks.some((d) => d.live < 2)) await new Promise((r) => setTimeout(r, 100));
      } finally {
        await Promise.all(desks.map((d) => d.stop()));
      }
    }, 90_000);
  },
);
