/**
 * Reason codes that other parts read back from a row (the app, the rename rule): a code, never the
 * sentence beside it, says what happened. The sentence (`reason`) is for people and may change.
 */

/** The local file was deleted; in a mirror folder its remote copy is being deleted (DELETING). */
export const LOCAL_DELETE = 'LOCAL-DELETE';
/** A mirror folder's local delete: the remote copy was deleted (DELETED). */
export const MIRROR_DELETED = 'MIRROR-DELETED';
/** Deleted from the CDN in the Files view with "stop syncing them": the local file stays, nothing is sent. */
export const REMOVED_BY_YOU = 'REMOVED-BY-YOU';

/** A row deleted locally a moment ago may be the source of a rename (either code). */
export const DELETED_LOCALLY: readonly string[] = [LOCAL_DELETE, MIRROR_DELETED];
