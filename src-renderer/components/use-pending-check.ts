import { useEffect, useState } from 'react';

/**
 * A checkbox whose truth lives in the core: a click shows the new state at once, not after the core's
 * reply (a box that seems not to take the click reads as broken, and under load the reply can take a
 * second). The requested state shows until the value from the core matches it; a refused change (the
 * save resolves to false or null) puts the core's value back.
 */
/** How long an accepted change may show ahead of the core's value. */
const SETTLE_MS = 2_000;

export function usePendingCheck(
  checked: boolean,
  onChange: (next: boolean) => unknown,
): [shown: boolean, change: (next: boolean) => void] {
  const [pending, setPending] = useState<boolean | null>(null);
  useEffect(() => {
    if (pending !== null && checked === pending) setPending(null);
  }, [checked, pending]);
  const change = (next: boolean) => {
    const r = onChange(next);
    if (!(r instanceof Promise)) return;
    setPending(next);
    void r.then(
      (ok) => {
        if (ok === false || ok === null) setPending(null);
        // Accepted: the core's value follows (at once, or with the change's event); should it say otherwise
        // (a setting this platform cannot take), the box shows the core's word, not the click, soon after.
        else setTimeout(() => setPending(null), SETTLE_MS);
      },
      () => setPending(null),
    );
  };
  return [pending ?? checked, change];
}
