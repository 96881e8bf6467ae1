/**
 * Waiting in tests, one way each. Prefer `untilEvent` (checked again at each event of a subscription:
 * no clock); `until` is for what says nothing when it changes (another process, a server's state) and
 * looks again every 25 ms, up to `ms`, then fails naming what it waited for.
 */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  ms = 20_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Anything with a subscribe(listener) that returns its unsubscribe: the app service, an event bus. */
export interface Subscribable<E> {
  subscribe(listener: (event: E) => void): () => void;
}

/**
 * Resolves once `check` holds, checked at once and again after each event `source` sends (never two
 * checks at a time: an event during a check asks for one more). A check that throws rejects, naming `what`.
 */
export function untilEvent<E>(
  source: Subscribable<E>,
  what: string,
  check: () => boolean | Promise<boolean>,
): Promise<void> {
  return new Promise((resolve, reject) => {
    let busy = false;
    let again = false;
    let done = false;
    const run = async () => {
      if (done) return;
      if (busy) {
        again = true;
        return;
      }
      busy = true;
      try {
        do {
          again = false;
          if (await check()) {
            done = true;
            off();
            resolve();
            return;
          }
        } while (again);
      } catch (e) {
        done = true;
        off();
        reject(new Error(`${what}: ${String(e)}`));
      } finally {
        busy = false;
      }
    };
    const off = source.subscribe(() => void run());
    void run();
  });
}
