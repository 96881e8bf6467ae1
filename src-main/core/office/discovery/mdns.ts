import { hostname } from 'node:os';
import makeMdns from 'multicast-dns';
import { OFFICE_PROTOCOL_VERSION } from '../protocol';
import type { Discovery, Endpoint } from './discovery';

/**
 * DNS-SD over mDNS (RFC 6762/6763) with `multicast-dns`: each desk is an instance of our service type, with
 * its UDP port in the SRV record and, in TXT, the protocol version, its instance id and its office's scope
 * (a hash: no name or address of the service in clear). A desk queries for the type when it starts and
 * every 10 s, answers others' queries, and announces itself at start (twice, a second apart, as DNS-SD
 * does) and with TTL 0 when it leaves. The address of a peer is the one its mDNS packet came from.
 */
export const SERVICE_TYPE = '_assets-office._udp.local';
const REQUERY_MS = 10_000;

export function mdnsDiscovery(opts: {
  id: string;
  scope: string;
  port: number;
  /** The interface's IPv4 address to use (all interfaces when absent). */
  interface?: string;
}): Discovery {
  const instance = `${opts.id}.${SERVICE_TYPE}`;
  const target = `${
    hostname()
      .replace(/[^A-Za-z0-9-]/g, '-')
      .slice(0, 50) || 'desk'
  }.local`;
  const txt = [`v=${OFFICE_PROTOCOL_VERSION}`, `id=${opts.id}`, `scope=${opts.scope}`];
  let mdns: ReturnType<typeof makeMdns> | null = null;
  let state: Discovery['state'] = 'starting';
  let detail: string | null = null;
  const timers: ReturnType<typeof setTimeout>[] = [];

  const records = (ttl: number) => [
    { name: SERVICE_TYPE, type: 'PTR' as const, ttl, data: instance },
    { name: instance, type: 'SRV' as const, ttl, data: { port: opts.port, target, priority: 0, weight: 0 } },
    { name: instance, type: 'TXT' as const, ttl, data: txt },
  ];

  return {
    name: 'mdns',
    get state() {
      return state;
    },
    get detail() {
      return detail;
    },
    start(found) {
      return new Promise<void>((resolve) => {
        try {
          mdns = makeMdns({
            loopback: true,
            reuseAddr: true,
            // A socket bound to the interface's own address hears no multicast on Linux: bind all, send
            // and join on the interface.
            ...(opts.interface ? { interface: opts.interface, bind: '0.0.0.0' } : {}),
          });
        } catch (e) {
          state = 'unavailable';
          detail = (e as Error).message;
          return resolve();
        }
        const m = mdns;
        const fail = (e: Error) => {
          state = 'unavailable';
          detail = `multicast DNS: ${e.message}`;
          resolve();
        };
        m.on('error', fail);
        // A warning is one bad packet or one interface without multicast: discovery goes on elsewhere.
        m.on('warning', () => {});
        m.on('query', (q) => {
          if (
            q.questions.some(
              (x) => x.name === SERVICE_TYPE && (x.type === 'PTR' || (x.type as string) === 'ANY'),
            )
          )
            m.respond({ answers: records(120) });
        });
        m.on('response', (r, rinfo) => {
          const all = [...(r.answers ?? []), ...(r.additionals ?? [])];
          for (const a of all) {
            if (a.type !== 'SRV' || !a.name.endsWith(`.${SERVICE_TYPE}`) || a.name === instance) continue;
            if (a.ttl === 0) continue;
            const t = all.find((x) => x.type === 'TXT' && x.name === a.name);
            const fields = txtFields(t && 'data' in t ? t.data : undefined);
            if (fields.v !== String(OFFICE_PROTOCOL_VERSION) || fields.scope !== opts.scope) continue;
            const port = (a.data as { port?: unknown }).port;
            if (typeof port !== 'number' || port <= 0 || port > 65535) continue;
            found({ address: rinfo.address, port } satisfies Endpoint);
          }
        });
        m.on('ready', () => {
          state = 'on';
          const ask = () => m.query({ questions: [{ name: SERVICE_TYPE, type: 'PTR' }] });
          ask();
          m.respond({ answers: records(120) });
          const again = setTimeout(() => m.respond({ answers: records(120) }), 1_000);
          const every = setInterval(ask, REQUERY_MS);
          again.unref();
          every.unref();
          timers.push(again, every);
          resolve();
        });
      });
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      const m = mdns;
      mdns = null;
      if (!m) return;
      if (state === 'on') await new Promise<void>((r) => m.respond({ answers: records(0) }, () => r()));
      await new Promise<void>((r) => m.destroy(() => r()));
    },
  };
}

function txtFields(data: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const items = Array.isArray(data) ? data : data === undefined ? [] : [data];
  for (const item of items) {
    const text = Buffer.isBuffer(item) ? item.toString('utf8') : typeof item === 'string' ? item : '';
    const eq = text.indexOf('=');
    if (eq > 0) out[text.slice(0, eq)] = text.slice(eq + 1);
  }
  return out;
}
