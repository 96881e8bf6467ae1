/**
 * Writes that arrive in the same turn of the event loop go to disk in one transaction, so under load
 * one fsync covers many deliveries (group commit). Each caller still gets its own result, and only
 * once the transaction is committed: nothing is acknowledged before it is durable.
 */
export function groupCommit<T, R>(applyAll: (items: T[]) => R[]): (item: T) => Promise<R> {
  let queue: { item: T; resolve(r: R): void; reject(e: unknown): void }[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = queue;
    queue = [];
    let results: R[];
    try {
      results = applyAll(batch.map((b) => b.item));
    } catch (error) {
      for (const b of batch) b.reject(error);
      return;
    }
    for (const [i, b] of batch.entries()) b.resolve(results[i]!);
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    });
}
