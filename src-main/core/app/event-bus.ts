import type { AnyEvent, EventName, PayloadOf } from '../../../src-shared/contract';

export type EventListener = (event: AnyEvent) => void;

/**
 * Fans core events out to the shells. Snapshot events (`sync.changed`, `sync.queue`) are coalesced
 * to at most one per `coalesceMs` per name, because a sync of thousands of files would otherwise
 * flood the UI with states it cannot paint anyway; the last payload always goes out.
 */
export function createEventBus(options: { coalesce?: readonly EventName[]; coalesceMs?: number } = {}) {
  const listeners = new Set<EventListener>();
  const coalesce = new Set<EventName>(options.coalesce ?? []);
  const coalesceMs = options.coalesceMs ?? 250;
  const pending = new Map<EventName, AnyEvent>();
  const timers = new Map<EventName, NodeJS.Timeout>();
  const lastSent = new Map<EventName, number>();

  const deliver = (event: AnyEvent) => {
    lastSent.set(event.event, Date.now());
    for (const l of [...listeners]) {
      try {
        l(event);
      } catch {
        // A listener (a closed socket, a destroyed window) must not stop the others.
      }
    }
  };

  return {
    emit<E extends EventName>(name: E, payload: PayloadOf<E>): void {
      const event = { event: name, payload } as AnyEvent;
      if (!coalesce.has(name)) {
        deliver(event);
        return;
      }
      const since = Date.now() - (lastSent.get(name) ?? 0);
      if (since >= coalesceMs && !timers.has(name)) {
        deliver(event);
        return;
      }
      pending.set(name, event);
      if (!timers.has(name)) {
        const timer = setTimeout(
          () => {
            timers.delete(name);
            const last = pending.get(name);
            pending.delete(name);
            if (last) deliver(last);
          },
          Math.max(0, coalesceMs - since),
        );
        timer.unref();
        timers.set(name, timer);
      }
    },
    subscribe(listener: EventListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close(): void {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      pending.clear();
      listeners.clear();
    },
  };
}
export type EventBus = ReturnType<typeof createEventBus>;
