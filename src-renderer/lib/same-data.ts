/**
 * Equal as data: the same fields with the same values, whatever their order (what the core sends is
 * JSON: plain objects, arrays, strings, numbers, booleans, null). A store keeps its old object when
 * a new answer says the same, so a component that selects it does not re-draw for nothing.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every(
    (k) =>
      Object.hasOwn(b, k) && sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
