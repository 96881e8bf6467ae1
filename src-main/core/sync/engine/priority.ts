/**
 * The order of the queue: two lanes and a push to the front. A row's `priority` (sync_files, migration
 * 11) is 0 for what a scan found (the initial backlog: in table order, unchanged by anything below),
 * the time it was seen for a file the watcher saw appear or change while the app runs (newest first,
 * all before the backlog), and URGENT_PRIORITY + the time of the click for "Upload now" (before both).
 * Hashing and upload slots are given in this order (files-store `inState`).
 */
export const URGENT_PRIORITY = 1e14;

export type Lane = 'now' | 'live' | 'backlog';

export function laneOf(priority: number): Lane {
  return priority >= URGENT_PRIORITY ? 'now' : priority > 0 ? 'live' : 'backlog';
}
