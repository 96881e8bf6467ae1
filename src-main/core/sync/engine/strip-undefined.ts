/** The object without its undefined values, so that spreading it over defaults keeps the defaults. */
export function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
