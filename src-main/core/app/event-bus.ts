import type { AnyEvent, EventName, PayloadOf } from '../../../src-shared/contract';
import { monotonicNow } from '../service/clock';

export type EventListener = (event: AnyEvent) => void;

/** Builds an event's payload when it goes out; null when there is nothing to say any more. */
export type Producer<E extends EventName> = () => PayloadOf<E> | null;

/**
 * Fans core events out to the shells. Snapshot events (`sync.changed`, `sync.queue`, `files.changed`)
 * are coalesced to at most one per `coalesceMs` per name, because a sync of thousands of files would
 * otherwise flood the UI with states it cannot paint anyway; the last state always goes out.
 *
 * A coalesced event may be given as a producer (`emitLazy`): the bus only marks the name dirty and
 * calls the producer when the event actually goes out, so a burst of 1,000 file transitions builds
 * the snapshot once or twice instead of 1,000 times, and what goes out is the state at that moment.
 */
export function createEventBus(
  options: {
    coalesce?: readonly EventName[];
    coalesceMs?: number;
    /** A longer interval for some names (a snapshot that costs more to build and changes nothing urgent). */
    coalesceMsOf?: Partial<Record<EventName, number>>;
    /**
     * Names that go out together: when one of a group goes out by its timer, the others of the group
     * waiting to go out go with it, in the same turn (the sync overview and queue: their producers then
     * share one read of the folders' tallies, sync-runtime.ts).
     */
    together?: readonly (readonly EventName[])[];
    /** A producer that threw (its event is dropped; the next emit tries again). */
    onError?: (name: EventName, error: unknown) => void;
    /**
     * A listener that threw: told once per event name (a broken listener throws at every event), and
     * counted (`listenerFailures`); the other listeners still get the event.
     */
    onListenerError?: (name: EventName, error: unknown) => void;
  } = {},
) {
  const listeners = new Set<EventListener>();
  const coalesce = new Set<EventName>(options.coalesce ?? []);
  const coalesceMs = options.coalesceMs ?? 250;
  const dirty = new Map<EventName, () => AnyEvent | null>();
  const timers = new Map<EventName, NodeJS.Timeout>();
  const lastSent = new Map<EventName, number>();
  const mates = new Map<EventName, EventName[]>();
  for (const group of options.together ?? [])
    for (const n of group)
      mates.set(
        n,
        group.filter((m) => m !== n),
      );

  let listenerFailures = 0;
  const toldFailing = new Set<EventName>();
  const deliver = (event: AnyEvent) => {
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch (e) {
        // A listener (a closed socket, a destroyed window) must not stop the others.
        listenerFailures++;
        if (toldFailing.has(event.event)) continue;
        toldFailing.add(event.event);
        try {
          options.onListenerError?.(event.event, e);
        } catch {
          // Nowhere left to say it: counted.
        }
      }
    }
  };

  const produceAndDeliver = (name: EventName, produce: () => AnyEvent | null) => {
    let event: AnyEvent | null;
    try {
      event = produce();
    } catch (e) {
      options.onError?.(name, e);
      return;
    }
    if (!event) return;
    // The monotonic clock: a wall clock set back 10 minutes held every coalesced event (the UI's sync view) 10 minutes.
    lastSent.set(name, monotonicNow());
    deliver(event);
  };

  function schedule(name: EventName, produce: () => AnyEvent | null): void {
    if (!coalesce.has(name)) {
      produceAndDeliver(name, produce);
      return;
    }
    const every = options.coalesceMsOf?.[name] ?? coalesceMs;
    const since = monotonicNow() - (lastSent.get(name) ?? Number.NEGATIVE_INFINITY);
    if (since >= every && !timers.has(name)) {
      produceAndDeliver(name, produce);
      return;
    }
    dirty.set(name, produce);
    if (timers.has(name)) return;
    const timer = setTimeout(
      () => {
        for (const n of [name, ...(mates.get(name) ?? [])]) {
          const last = dirty.get(n);
          if (n !== name && !last) continue;
          clearTimeout(timers.get(n));
          timers.delete(n);
          dirty.delete(n);
          if (last) produceAndDeliver(n, last);
        }
      },
      Math.max(0, every - since),
    );
    timer.unref();
    timers.set(name, timer);
  }

  return {
    emit<E extends EventName>(name: E, payload: PayloadOf<E>): void {
      const event = { event: name, payload } as AnyEvent;
      schedule(name, () => event);
    },
    /** Like emit, but the payload is built by `produce` only when the (coalesced) event goes out. */
    emitLazy<E extends EventName>(name: E, produce: Producer<E>): void {
      schedule(name, () => {
        const payload = produce();
        return payload === null ? null : ({ event: name, payload } as AnyEvent);
      });
    },
    /** Listeners that threw (each throw counted). */
    get listenerFailures(): number {
      return listenerFailures;
    },
    subscribe(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close(): void {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      dirty.clear();
      listeners.clear();
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
