import { hostname } from 'node:os';
import type { OfficeStatus } from '../../../src-shared/contract/office';
import type { IndexWatch } from '../remote-index/shared-watch';
import { monotonicNow } from '../service/clock';
import { forgetBudget, setOfficeBudgetMaker } from '../service/request-budget';
import { createWatchBoard } from './account-watch';
import { type Desk, newInstanceId, startDesk } from './desk';
import type { Discovery } from './discovery/discovery';
import { localFolderDiscovery } from './discovery/local-folder';
import { manualDiscovery, OFFICE_DEFAULT_PORT } from './discovery/manual';
import { mdnsDiscovery } from './discovery/mdns';
import { HEARTBEAT_MS } from './election';
import { createOfficeBudget, type OfficeBudget } from './office-budget';
import { macKey, officeScope } from './protocol';
import { openUdpTransport } from './transport';

/** What a desk needs to join: the office's settings (office-settings.ts) and how it introduces itself. */
export interface JoinOptions {
  enabled: boolean;
  officeName: string;
  peers: readonly string[];
  key: string | null;
  /** Shown to peers: a short label of this desk (host and program), never an account or a path. */
  deskName: string;
  version: string;
  /** UDP port to try first (default 47913; any free one when taken). */
  port?: number;
  /** Bind and multicast on this IPv4 address only (a network namespace's interface in tests). */
  host?: string;
  /** Which discovery paths to use (default all three); tests block some. */
  discovery?: { mdns?: boolean; local?: boolean };
  /** The local folder of the fallback (default: officeFolder()). */
  folder?: string;
  /** Told when the office changes (a peer, a share, a pause), at most once a heartbeat. */
  onChange?: () => void;
  log?: (line: string) => void;
}

export interface OfficeHandle {
  /** null until the first file API client of this process is made (the office is per service address). */
  status(): OfficeStatus | null;
  readonly budget: OfficeBudget | null;
  /** The watch of an account's deletes shared with the desks of it (account-watch.ts); alone: no peers. */
  watchFor(serviceOrigin: string, clientId: string): IndexWatch;
  close(): Promise<void>;
}

function isLoopback(origin: string): boolean {
  try {
    const h = new URL(origin).hostname;
    return h === 'localhost' || h === '[::1]' || h.startsWith('127.');
  } catch {
    return false;
  }
}

/**
 * Makes this process a desk: from now on, the file API budget of the first service address it talks to is an
 * office budget (request-budget.ts `setOfficeBudgetMaker`), and a desk starts in the background to find the
 * others. Desks share an office when they have the same office name and talk to the same service address (a
 * sandbox on 127.0.0.1 is one machine's own: the host name joins its scope). `close()` says goodbye (its
 * share returns to the others at once) and leaves the budget alone again.
 */
export function joinOffice(o: JoinOptions): OfficeHandle {
  let budget: OfficeBudget | null = null;
  let desk: Desk | null = null;
  let origin: string | null = null;
  let starting: Promise<void> | null = null;
  let closed = false;
  const board = createWatchBoard(() => desk);
  let lastTold = 0;
  let tellTimer: ReturnType<typeof setTimeout> | null = null;
  const tell = () => {
    if (!o.onChange || tellTimer) return;
    const wait = Math.max(0, lastTold + HEARTBEAT_MS - monotonicNow());
    tellTimer = setTimeout(() => {
      tellTimer = null;
      lastTold = monotonicNow();
      if (!closed) o.onChange?.();
    }, wait);
    tellTimer.unref?.();
  };

  setOfficeBudgetMaker((at, perMinute) => {
    const made = createOfficeBudget({ office: o.enabled && !closed, perMinute });
    if (budget) return made;
    budget = made;
    origin = at;
    if (o.enabled) starting = start(made, at);
    return made;
  });

  async function start(b: OfficeBudget, at: string): Promise<void> {
    const scope = officeScope(o.officeName, isLoopback(at) ? `${at} ${hostname()}` : at);
    try {
      const transport = await openUdpTransport({
        port: o.port ?? OFFICE_DEFAULT_PORT,
        ...(o.host ? { host: o.host } : {}),
      });
      const discoveries: Discovery[] = [];
      const id = newInstanceId();
      if (o.discovery?.mdns !== false)
        discoveries.push(
          mdnsDiscovery({ id, scope, port: transport.port, ...(o.host ? { interface: o.host } : {}) }),
        );
      if (o.discovery?.local !== false)
        discoveries.push(
          localFolderDiscovery({
            id,
            scope,
            port: transport.port,
            ...(o.folder ? { folder: o.folder } : {}),
          }),
        );
      if (o.peers.length > 0) discoveries.push(manualDiscovery(o.peers));
      const d = await startDesk({
        id,
        scope,
        key: o.key ? macKey(o.key) : null,
        name: o.deskName.slice(0, 64),
        version: o.version.slice(0, 64),
        transport,
        discoveries,
        max: b.ownCeiling,
        ...(o.log ? { log: o.log } : {}),
      });
      if (closed) {
        await d.close();
        return;
      }
      desk = d;
      d.watching(board.words);
      d.onWatch(board.heard);
      d.onChange(tell);
      b.attach(d);
      for (const x of discoveries)
        if (x.state === 'unavailable')
          o.log?.(`office: ${x.name} discovery unavailable (${x.detail ?? 'no reason given'})`);
    } catch (e) {
      // The office is advice: a desk that cannot open its socket plans alone.
      b.detach();
      o.log?.(`office: this desk plans alone (${(e as Error).message})`);
    }
  }

  return {
    get budget() {
      return budget;
    },
    status() {
      if (!budget) return null;
      const role = budget.role();
      const mode: OfficeStatus['mode'] = !o.enabled ? 'off' : role.kind === 'alone' ? 'alone' : 'office';
      const peers = desk && role.kind !== 'alone' ? desk.peers() : [];
      return {
        mode,
        desks: role.kind === 'alone' ? 1 : role.desks,
        sharePerMinute: Math.round(budget.share * 10) / 10,
        ceiling: role.kind === 'alone' ? budget.ownCeiling : role.ceiling,
        holder: role.kind === 'alone' ? null : role.kind === 'holder' ? 'self' : 'peer',
        pausedForMs: role.kind === 'alone' ? 0 : Math.max(0, role.pauseUntil - monotonicNow()),
        port: desk?.port ?? null,
        officeName: o.officeName,
        peers,
        discovery: (desk?.discoveries ?? []).map((d) => ({ name: d.name, state: d.state, detail: d.detail })),
        keyed: o.key !== null,
        refused: desk?.refused() ?? { total: 0, from: [] },
      };
    },
    watchFor(serviceOrigin, clientId) {
      return board.for(serviceOrigin, clientId);
    },
    async close() {
      if (closed) return;
      closed = true;
      if (tellTimer) clearTimeout(tellTimer);
      setOfficeBudgetMaker(null);
      await starting;
      budget?.detach();
      if (origin) forgetBudget(origin, 'files');
      await desk?.close();
      desk = null;
    },
  };
}
