import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { Discovery } from './discovery';

/**
 * Where multicast does not reach (a container's loopback, a firewall), desks of one machine still find each
 * other: each writes `<id>.json` (its UDP port, pid and office scope) into a folder of the user's temp dir
 * (0700) and reads the others' every second. An entry whose process is gone (a desk killed with -9) is
 * removed by the next reader. `ASSETS_SYNC_OFFICE_DIR` names another folder (tests).
 */
const Entry = z.strictObject({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  port: z.number().int().min(1).max(65535),
  pid: z.number().int().min(1),
  scope: z.string().regex(/^[0-9a-f]{16}$/),
});
const READ_MS = 1_000;

export function officeFolder(env: NodeJS.ProcessEnv = process.env): string {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  return env.ASSETS_SYNC_OFFICE_DIR || join(tmpdir(), `assets-sync-office-${uid}`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function localFolderDiscovery(opts: {
  id: string;
  scope: string;
  port: number;
  folder?: string;
}): Discovery {
  const folder = opts.folder ?? officeFolder();
  const mine = join(folder, `${opts.id}.json`);
  let state: Discovery['state'] = 'starting';
  let detail: string | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;

  return {
    name: 'local',
    get state() {
      return state;
    },
    get detail() {
      return detail;
    },
    async start(found) {
      try {
        mkdirSync(folder, { recursive: true, mode: 0o700 });
        if ((statSync(folder).mode & 0o077) !== 0 && typeof process.getuid === 'function')
          throw new Error(`${folder} is open to other users; the office does not read it`);
        writeFileSync(
          mine,
          JSON.stringify({ id: opts.id, port: opts.port, pid: process.pid, scope: opts.scope }),
          {
            mode: 0o600,
          },
        );
      } catch (e) {
        state = 'unavailable';
        detail = (e as Error).message;
        return;
      }
      const read = () => {
        let names: string[];
        try {
          names = readdirSync(folder);
        } catch {
          return;
        }
        for (const name of names) {
          if (!name.endsWith('.json') || name === `${opts.id}.json`) continue;
          const path = join(folder, name);
          let entry: z.infer<typeof Entry>;
          try {
            const parsed = Entry.safeParse(JSON.parse(readFileSync(path, 'utf8')));
            if (!parsed.success) continue;
            entry = parsed.data;
          } catch {
            continue;
          }
          if (!alive(entry.pid)) {
            rmSync(path, { force: true });
            continue;
          }
          if (entry.scope === opts.scope) found({ address: '127.0.0.1', port: entry.port });
        }
      };
      read();
      timer = setInterval(read, READ_MS);
      timer.unref();
      state = 'on';
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      rmSync(mine, { force: true });
    },
  };
}
