import { type Desk, startDesk } from '../../src-main/core/office/desk';
import type { Discovery } from '../../src-main/core/office/discovery/discovery';
import { createOfficeBudget, type OfficeBudget } from '../../src-main/core/office/office-budget';
import type { Transport } from '../../src-main/core/office/transport';

/**
 * Desks on an in-memory link (for the protocol's tests on a fake clock): datagrams are delivered in a
 * microtask (or after `delay()` ms), a desk can be cut off (killed with -9: it neither sends nor hears), and anyone may inject raw
 * bytes as if from a peer. The desks themselves, their holder and their budgets are the real ones.
 */
export function memoryLink(o: { delay?: (from: number, to: number) => number; record?: boolean } = {}) {
  const sockets = new Map<
    number,
    { deliver: (d: Buffer, from: { address: string; port: number }) => void }
  >();
  const cut = new Set<number>();
  /** Datagrams that are lost, as `from>to`. */
  const apart = new Set<string>();
  const pair = (from: number, to: number) => `${from}>${to}`;
  let nextPort = 40_000;
  const sent: { from: number; to: number; data: Buffer }[] = [];

  function transport(): Transport {
    const port = nextPort++;
    const listeners: ((d: Buffer, f: { address: string; port: number }) => void)[] = [];
    sockets.set(port, {
      deliver: (d, f) => {
        for (const l of listeners) l(d, f);
      },
    });
    return {
      port,
      send(data, address, to) {
        if (cut.has(port) || apart.has(pair(port, to)) || address !== '127.0.0.1') return;
        if (o.record !== false) sent.push({ from: port, to, data });
        const deliver = () => {
          if (cut.has(to)) return;
          sockets.get(to)?.deliver(data, { address: '127.0.0.1', port });
        };
        // A delay models loaded processes (the simulation); none: the next microtask.
        if (o.delay) setTimeout(deliver, o.delay(port, to));
        else queueMicrotask(deliver);
      },
      onMessage(fn) {
        listeners.push(fn);
      },
      async close() {
        sockets.delete(port);
      },
    };
  }

  /** Discovery by the link itself: every desk is offered every port now open. */
  function discovery(own?: number): Discovery {
    let timer: ReturnType<typeof setInterval> | null = null;
    return {
      name: 'local',
      state: 'on',
      detail: null,
      async start(found) {
        // Not its own port, as the real discoveries (a desk alone finds nobody).
        const offer = () => {
          for (const port of sockets.keys()) if (port !== own) found({ address: '127.0.0.1', port });
        };
        offer();
        timer = setInterval(offer, 1_000);
      },
      async close() {
        if (timer) clearInterval(timer);
      },
    };
  }

  return {
    sent,
    /** The port the next desk of this link gets (to cut it off from some peers before it starts). */
    get nextPort() {
      return nextPort;
    },
    transport,
    discovery,
    /** A desk with its office budget on this link. */
    async desk(o: {
      id: string;
      startedAt: number;
      max?: number;
      random?: () => number;
      log?: (line: string) => void;
      /** The office key's MAC key (protocol.ts `macKey`): a keyed office. */
      key?: Buffer;
      /** This desk's wall clock, when it disagrees with the others' (another machine's). */
      wallNow?: () => number;
    }): Promise<{
      desk: Desk;
      budget: OfficeBudget;
      port: number;
    }> {
      const budget = createOfficeBudget({
        office: true,
        perMinute: o.max ?? 115,
        random: o.random ?? (() => 0),
      });
      const t = transport();
      const desk = await startDesk({
        id: o.id,
        // The tests say when a desk started on the wall clock; the desk counts on the monotonic one.
        startedAt: performance.now() - (Date.now() - o.startedAt),
        scope: '00000000000000aa',
        key: o.key ?? null,
        name: `desk ${o.id.slice(-2)}`,
        version: 'test',
        transport: t,
        discoveries: [discovery(t.port)],
        max: o.max ?? 115,
        random: o.random ?? (() => 0),
        ...(o.log ? { log: o.log } : {}),
        ...(o.wallNow ? { wallNow: o.wallNow } : {}),
      });
      budget.attach(desk);
      return { desk, budget, port: t.port };
    },
    /** Cuts a desk off the link: it is gone for the others, as after kill -9. */
    kill(port: number) {
      cut.add(port);
    },
    /**
     * Two desks stop hearing each other (each still hears the rest), until `heal`: a process stalled on a
     * loaded machine, whose datagrams from one peer come after those of the others.
     */
    partition(a: number, b: number) {
      apart.add(pair(a, b));
      apart.add(pair(b, a));
    },
    /** Heals a partition one way (`from` is heard by `to` again), or all of them. */
    heal(from?: number, to?: number) {
      if (from === undefined || to === undefined) apart.clear();
      else apart.delete(pair(from, to));
    },
    /** Raw bytes to `port`, as if from `fromPort`. */
    inject(port: number, data: Buffer, fromPort = 1) {
      sockets.get(port)?.deliver(data, { address: '127.0.0.1', port: fromPort });
    },
  };
}

let forged = 1_000_000;
/** A counter for a datagram a test forges: each one new (a replay is dropped; desk.ts createReplayGuard). */
export const nextSeq = () => ++forged;

export const ids = (n: number) => `${'0'.repeat(15)}${n.toString(16)}`;

/** Starts `n` takes on a budget and counts how many were granted. */
export function takes(budget: { take(s?: AbortSignal, lane?: 'sync'): Promise<void> }, n: number) {
  const got = { n: 0 };
  for (let i = 0; i < n; i++) void budget.take(undefined, 'sync').then(() => got.n++);
  return got;
}

/**
 * Who holds, as each desk says: the ids of the desks that hold, and for every desk the holder it holds or
 * follows (null: alone). One office settled: one holder, the same id everywhere.
 */
export function holdersOf(desks: readonly { desk: Desk }[]) {
  const roles = desks.map((d) => d.desk.role());
  return {
    holders: desks.filter((_, i) => roles[i]!.kind === 'holder').map((d) => d.desk.id),
    holderIds: roles.map((r) => (r.kind === 'alone' ? null : r.holderId)),
  };
}

/** The term a desk holds or follows. */
export const termOf = (d: { desk: { role(): unknown } }) => (d.desk.role() as { term: number }).term;

/**
 * An office of two on `link`: desk 1 started 3 s ago (it holds), desk 2 2 s ago; `settle` (the fake clock's
 * advance) lets them hear each other for 2 s.
 */
export async function twoDesks(
  link: ReturnType<typeof memoryLink>,
  settle: (ms: number) => Promise<unknown>,
) {
  const t0 = Date.now();
  const a = await link.desk({ id: ids(1), startedAt: t0 - 3_000 });
  const b = await link.desk({ id: ids(2), startedAt: t0 - 2_000 });
  await settle(2_000);
  return { a, b };
}
