import { lookup } from 'node:dns/promises';
import type { Discovery } from './discovery';

/** Default UDP port of a desk: the first desk of a machine gets it (others take any), for manual lists. */
export const OFFICE_DEFAULT_PORT = 47913;

/** Parses "host:port" (or "host", meaning the default port); null when it is not one. */
export function parsePeer(text: string): { host: string; port: number } | null {
  const t = text.trim();
  const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(t);
  if (!m) return null;
  const port = m[2] === undefined ? OFFICE_DEFAULT_PORT : Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/**
 * The manual peer list of Settings, for networks that block multicast (Wi-Fi client isolation, separate
 * subnets behind one NAT): each entry's host is looked up again every 30 s and offered to the desk.
 */
export function manualDiscovery(peers: readonly string[]): Discovery {
  const parsed = peers.map(parsePeer).filter((p): p is { host: string; port: number } => p !== null);
  let state: Discovery['state'] = 'starting';
  let detail: string | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    name: 'manual',
    get state() {
      return state;
    },
    get detail() {
      return detail;
    },
    async start(found) {
      const resolveAll = async () => {
        const failed: string[] = [];
        for (const p of parsed) {
          try {
            const { address } = await lookup(p.host, { family: 4 });
            found({ address, port: p.port });
          } catch {
            failed.push(p.host);
          }
        }
        detail = failed.length > 0 ? `not found: ${failed.join(', ')}` : null;
      };
      await resolveAll();
      timer = setInterval(() => void resolveAll(), 30_000);
      timer.unref();
      state = 'on';
    },
    async close() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
