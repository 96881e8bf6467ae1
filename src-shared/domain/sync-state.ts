/** The app's overall sync state, as the sidebar badge and the tray show it. */
export const SYNC_STATES = ['idle', 'syncing', 'paused', 'error'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

/** The words for each state: one set for the renderer and the tray. */
export const SYNC_STATE_LABEL: Record<SyncState, string> = {
  idle: 'In sync',
  syncing: 'Syncing',
  paused: 'Paused',
  error: 'Needs attention',
};
