/**
 * Waits `ms`, or less if `signal` aborts first: the index keeper's pause between refreshes and the
 * bulk delete's pause before a retry both end at once when the app stops them. Never rejects, so a
 * stopped loop sees `signal.aborted` on its next turn instead of an error to catch.
 */
export function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}
