/** Printed on stdout by engine-child.ts the moment the first folder is in sync (before its report). */
export const IN_SYNC_LINE = 'in-sync';
