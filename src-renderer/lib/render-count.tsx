import { Profiler, type ReactNode } from 'react';

declare global {
  interface Window {
    /** Commits per counted subtree, in a test build only (see RenderCount). */
    __renderCounts?: Record<string, number>;
  }
}

function count(id: string): void {
  window.__renderCounts ??= {};
  window.__renderCounts[id] = (window.__renderCounts[id] ?? 0) + 1;
}

/**
 * Counts the commits of a big list into `window.__renderCounts[id]`, so an e2e test can tell that a
 * store change the list does not show left it alone. Only in a test build (buildRenderer's
 * `renderCounts`, React's profiling build); in the app's own build `__RENDER_COUNTS__` is false and
 * this is its children, the Profiler gone with the dead branch. Put it inside the list's own
 * component: a Profiler re-rendered by its parent counts a commit even when its child bails out.
 */
export function RenderCount({ id, children }: { id: string; children: ReactNode }) {
  if (!__RENDER_COUNTS__) return children;
  return (
    <Profiler id={id} onRender={count}>
      {children}
    </Profiler>
  );
}
