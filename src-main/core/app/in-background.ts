/**
 * Work of the app nobody awaits (what a session change or an engine event sets off): a failure is
 * written to the app's log with what it was doing, never left as an unhandled rejection, which ends
 * the process (Node's default). The work's own retry, if it has one, is its business.
 */
export function inBackground(log: (line: string) => void, what: string, work: () => Promise<unknown>): void {
  void (async () => {
    try {
      await work();
    } catch (e) {
      try {
        log(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
      } catch {
        // The log itself failed: nothing more can be said.
      }
    }
  })();
}
