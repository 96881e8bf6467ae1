import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { type OfficeStatus, OfficeStatusSchema } from '../../../src-shared/contract/office';
import { appVersion } from '../../shared-node/app-version';
import type { SecretStore } from '../secrets/keychain';
import type { ServiceSettingsStore } from '../service/settings';
import { type JoinOptions, joinOffice, type OfficeHandle } from './join';
import { readOfficeSettings } from './office-settings';

/**
 * Joins the office as a running engine of this data folder (the app, or `assets-sync sync`): the settings of
 * the folder, and a status file `<dataDir>/office/<pid>.json` rewritten each second, which
 * `assets-sync status` reads (it sends no request and joins nothing).
 */
export function joinAsDesk(o: {
  dataDir: string;
  settings: ServiceSettingsStore;
  secrets: SecretStore;
  program: 'app' | 'sync';
  log?: (line: string) => void;
  onChange?: (s: OfficeStatus) => void;
  extra?: Partial<JoinOptions>;
}): OfficeHandle {
  const s = readOfficeSettings(o.settings, o.secrets);
  // A test aid (bench:office "discovery blocked"): which automatic paths to use.
  const only = process.env.ASSETS_SYNC_OFFICE_DISCOVERY;
  // Another test aid: the address to listen and multicast on (a network namespace's own, in tests).
  const host = process.env.ASSETS_SYNC_OFFICE_HOST;
  const discovery =
    only === 'none'
      ? { mdns: false, local: false }
      : only === 'local'
        ? { mdns: false }
        : only === 'mdns'
          ? { local: false }
          : {};
  const folder = join(o.dataDir, 'office');
  const file = join(folder, `${process.pid}.json`);
  let handle: OfficeHandle | null = null;
  const write = () => {
    const st = handle?.status();
    if (!st) return;
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      // Written aside and renamed over: rewritten each second, a file read in the middle of a rewrite was
      // empty, and \`status\` said no desk runs (one-machine.test.ts, once on a busy machine).
      writeFileSync(`${file}.tmp`, JSON.stringify({ pid: process.pid, at: Date.now(), status: st }), {
        mode: 0o600,
      });
      renameSync(`${file}.tmp`, file);
    } catch {
      // The status file is for `assets-sync status` only; the desk goes on without it.
    }
  };
  handle = joinOffice({
    enabled: s.enabled,
    officeName: s.name,
    peers: s.peers,
    key: s.key,
    deskName: `${hostname().slice(0, 40)} (${o.program})`,
    version: appVersion(),
    discovery,
    ...(host ? { host } : {}),
    ...(o.log ? { log: o.log } : {}),
    ...o.extra,
  });
  const timer = setInterval(() => {
    write();
    const st = handle?.status();
    if (st) o.onChange?.(st);
  }, 1_000);
  timer.unref();
  return {
    get budget() {
      return handle!.budget;
    },
    status: () => handle!.status(),
    watchFor: (serviceOrigin, clientId) => handle!.watchFor(serviceOrigin, clientId),
    async close() {
      clearInterval(timer);
      rmSync(file, { force: true });
      await handle!.close();
    },
  };
}

/** The office as the running desks of this data folder last wrote it (fresh within 5 s); [] when none runs. */
export function readDeskStatuses(dataDir: string, now = Date.now()): OfficeStatus[] {
  const folder = join(dataDir, 'office');
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const out: OfficeStatus[] = [];
  for (const n of names) {
    // A status being written (`.tmp`) is not a second desk.
    if (!n.endsWith('.json')) continue;
    try {
      const raw = JSON.parse(readFileSync(join(folder, n), 'utf8')) as { at?: unknown; status?: unknown };
      if (typeof raw.at !== 'number' || now - raw.at > 5_000) continue;
      const st = OfficeStatusSchema.safeParse(raw.status);
      if (st.success) out.push(st.data);
    } catch {
      // A file being rewritten, or not ours: skip it.
    }
  }
  return out;
}
