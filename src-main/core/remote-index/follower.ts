import type { RemoteFile } from '../../../src-shared/api/file-hosting';
import type { RemoteEvent } from '../service/file-api-client';
import type { IndexStore } from './index-store';

/** Files seen live before /me said whose they are; more are left to the next refresh. */
const MAX_HELD = 1_000;

/**
 * Keeps the index in step with this app's own uploads and deletes, at once, from the replies of one
 * client (wire it to `FileApiClientOptions.onRemote`): the sync engine's uploads and deletes, a
 * delete from the Files view, an import, `rm`, all go through a client. A file id names one file of
 * the whole service, so a delete applies to whichever account of the service holds it; a new file
 * needs the account, which /me names (the engine asks it before any upload): until then new files
 * are held.
 */
export function indexFollower(store: IndexStore, service: string, clientId?: number) {
  let accountId = clientId === undefined ? null : store.accountId({ service, clientId });
  const held: RemoteFile[] = [];
  /** Events whose write failed (the database busy): applied again, in order, before the next one. */
  const failed: RemoteEvent[] = [];

  function apply(event: RemoteEvent): void {
    switch (event.kind) {
      case 'account': {
        accountId = store.accountId({ service, clientId: event.clientId });
        if (held.length) store.put(accountId, held.splice(0));
        return;
      }
      case 'live': {
        if (accountId !== null) store.put(accountId, [event.file]);
        else if (held.length < MAX_HELD) held.push(event.file);
        return;
      }
      case 'gone': {
        for (const id of store.accountIdsOf(service)) store.remove(id, event.id);
        const i = held.findIndex((f) => f.id === event.id);
        if (i >= 0) held.splice(i, 1);
        return;
      }
    }
  }

  // A write that throws is not lost: the event waits (at most MAX_HELD of them; beyond, the next
  // refresh and the daily walk bring the index back) and the error goes to the client, which says so.
  return (event: RemoteEvent): void => {
    const queue = [...failed.splice(0), event];
    for (let i = 0; i < queue.length; i++) {
      try {
        apply(queue[i]!);
      } catch (e) {
        failed.push(...queue.slice(i).slice(-MAX_HELD));
        throw e;
      }
    }
  };
}
