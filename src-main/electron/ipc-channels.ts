/** The few IPC channels between preload and main; the page never sees them. */
export const IPC = {
  call: 'assets-sync:call',
  event: 'assets-sync:event',
  pickFolder: 'assets-sync:pick-folder',
} as const;
