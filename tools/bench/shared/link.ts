import { spawnSync } from 'node:child_process';
import { type DelayProxy, startDelayProxy } from './delay-proxy';
import { type BenchServer, startServer } from './processes';

/**
 * A shaped link for the benchmarks: the reference server in a network namespace of its own, reached
 * over a veth pair whose two ends are shaped by `tc qdisc ... tbf` (one per direction), with a delay
 * proxy (delay-proxy.ts) on this side in front of it. The engine and curl both talk to the proxy, so
 * both cross the same path:
 *
 *   engine / curl --loopback--> proxy (+20 ms each way) --veth, tbf 200 Mbit/s each way--> server (netns)
 *
 * Needs root, iproute2 (`ip netns`, `tc`) and the tbf qdisc; linkUnavailable() says why not.
 */
export const LINK = { rateMbit: 200, oneWayMs: 20 } as const;

// Room for a 64 KiB GSO segment; the queue may hold 50 ms of the rate (1.25 MB) before tbf drops.
const TBF = ['tbf', 'rate', `${LINK.rateMbit}mbit`, 'burst', '256kb', 'latency', '50ms'];

export interface LinkServer extends BenchServer {
  /** The proxy's count of TCP connections opened through the link. */
  connections(): number;
}

interface Names {
  netns: string;
  hostIf: string;
  nsIf: string;
  hostIp: string;
  nsIp: string;
}

function namesFor(pid: number): Names {
  // A /30 of 10.213.0.0/16 picked by pid, so that two benchmarks running at once do not collide.
  const n = pid % 16_384;
  const base = `10.213.${n >> 6}.${(n & 63) << 2}`.split('.').map(Number);
  const ip = (last: number) => `${base[0]}.${base[1]}.${base[2]}.${base[3]! + last}`;
  return {
    netns: `bench-sync-${pid}`,
    hostIf: `bsh${pid}`.slice(0, 15),
    nsIf: `bss${pid}`.slice(0, 15),
    hostIp: ip(1),
    nsIp: ip(2),
  };
}

function run(argv: string[]): { ok: boolean; text: string } {
  const r = spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8' });
  if (r.error)
    return { ok: false, text: `${argv[0]}: ${(r.error as NodeJS.ErrnoException).code ?? r.error.message}` };
  return { ok: r.status === 0, text: `${r.stderr}${r.stdout}`.trim() };
}

/** Why the link cannot be built here (not root, no iproute2, no tbf), or null when it can. */
export function linkUnavailable(): string | null {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'needs root (ip netns)';
  for (const tool of [
    ['ip', '-V'],
    ['tc', '-V'],
  ]) {
    const r = run(tool);
    if (!r.ok) return `${tool[0]} not found (apt-get install -y iproute2): ${r.text}`;
  }
  return null;
}

/** Creates the namespace, the veth pair and both tbf qdiscs; returns a teardown that undoes it all. */
function buildLink(n: Names): () => void {
  const remove = () => {
    // Deleting the namespace deletes the veth pair with it; the host end is deleted too in case.
    run(['ip', 'netns', 'del', n.netns]);
    run(['ip', 'link', 'del', n.hostIf]);
  };
  // A run stopped by Ctrl-C (bench-sync.ts exits) must not leave the namespace and the veth behind.
  const teardown = () => {
    process.off('exit', remove);
    remove();
  };
  // Left by an earlier run of the same pid that could not clean up (killed): start clean.
  remove();
  process.once('exit', remove);
  const steps = [
    ['ip', 'netns', 'add', n.netns],
    ['ip', 'link', 'add', n.hostIf, 'type', 'veth', 'peer', 'name', n.nsIf, 'netns', n.netns],
    ['ip', 'addr', 'add', `${n.hostIp}/30`, 'dev', n.hostIf],
    ['ip', 'link', 'set', n.hostIf, 'up'],
    ['ip', '-n', n.netns, 'addr', 'add', `${n.nsIp}/30`, 'dev', n.nsIf],
    ['ip', '-n', n.netns, 'link', 'set', n.nsIf, 'up'],
    ['ip', '-n', n.netns, 'link', 'set', 'lo', 'up'],
    // Each end shapes what it sends: the host end the uploads, the namespace's end the answers.
    ['tc', 'qdisc', 'add', 'dev', n.hostIf, 'root', ...TBF],
    ['ip', 'netns', 'exec', n.netns, 'tc', 'qdisc', 'add', 'dev', n.nsIf, 'root', ...TBF],
  ];
  for (const step of steps) {
    const r = run(step);
    if (!r.ok) {
      teardown();
      throw new Error(`the shaped link could not be built: \`${step.join(' ')}\`: ${r.text}`);
    }
  }
  return teardown;
}

/**
 * Runs `measure` against a reference server behind the shaped link (limit per minute given, 0 = off),
 * with its data in `dataDir`; everything is torn down afterwards, whatever happened.
 */
export async function withLinkServer<T>(
  dataDir: string,
  ratePerMinute: number,
  measure: (server: LinkServer) => Promise<T>,
): Promise<T> {
  const n = namesFor(process.pid);
  const teardown = buildLink(n);
  let server: BenchServer | null = null;
  let proxy: DelayProxy | null = null;
  try {
    server = await startServer(dataDir, ratePerMinute, { netns: n.netns, host: n.nsIp });
    const port = Number(new URL(server.url).port);
    proxy = await startDelayProxy({ host: n.nsIp, port }, LINK.oneWayMs);
    const p = proxy;
    return await measure({ ...server, url: p.url, connections: () => p.connections() });
  } finally {
    await proxy?.close();
    await server?.stop();
    teardown();
  }
}
