/**
 * Where keyboard focus goes when the control that held it goes away by its own doing (issue 23): a
 * button removed by its action ("Upload now" once its file is first in line), disabled by it ("Edit
 * a merge" while the merge is open, "Save" once saved), or a whole form swapped for another (a
 * conflict resolved). The browser drops focus to the page's start then, and a keyboard user has to
 * Tab from the top again; this hands it to the nearest sensible place instead.
 */

/** True when nothing useful holds focus: the page itself, or an element disabled or no longer in it. */
export function focusIsLost(doc: Document = document): boolean {
  const a = doc.activeElement as (HTMLElement & { disabled?: boolean }) | null;
  return !a || a === doc.body || a.disabled === true || !a.isConnected;
}

/** Focuses the first of `targets` that is in the page, but only when focus was lost (never steals it). */
export function rescueFocus(...targets: (HTMLElement | null | undefined)[]): boolean {
  if (!focusIsLost()) return false;
  const to = targets.find((t) => t?.isConnected);
  to?.focus();
  return !!to;
}
