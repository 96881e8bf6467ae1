import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

/**
 * The upload journal: an intent row is written (in the same transaction as QUEUED -> UPLOADING)
 * before each POST and settled after it. An intent left open means "the service may or may not have
 * stored it": it is settled by matching the bucket's listing before anything is sent again.
 */
export interface JournalEntry {
  id: number;
  fileId: number;
  bucket: string;
  name: string;
  size: number;
  md5: string;
  startedAt: number;
}

/** ACCOUNT-CHANGED: the intent was for another account; the row is verified against the new one. */
export type JournalOutcome = 'LIVE' | 'FAILED' | 'ADOPTED' | 'NOT-FOUND' | 'ABANDONED' | 'ACCOUNT-CHANGED';

export function journalStore(db: Db, now: () => number = Date.now) {
  const prep = statements(db);
  return {
    open(e: Omit<JournalEntry, 'id' | 'startedAt'>): number {
      return Number(
        prep(
          'INSERT INTO sync_journal (file_id, bucket, name, size, md5, started_at) VALUES (?, ?, ?, ?, ?, ?)',
        ).run(e.fileId, e.bucket, e.name, e.size, e.md5, now()).lastInsertRowid,
      );
    },
    /**
     * The md5 of an intent opened before it was known (hashed while sending; '' until then). Set before
     * the body's last bytes leave: the service cannot store a body it has not received whole.
     */
    setMd5(id: number, md5: string): void {
      prep('UPDATE sync_journal SET md5 = ? WHERE id = ? AND settled_at IS NULL').run(md5, id);
    },
    settle(id: number, outcome: JournalOutcome, remoteId: number | null = null): void {
      prep(
        'UPDATE sync_journal SET settled_at = ?, outcome = ?, remote_id = ? WHERE id = ? AND settled_at IS NULL',
      ).run(now(), outcome, remoteId, id);
    },
    /** Open intents, oldest first; `bucket` narrows to one listing. */
    unsettled(bucket?: string): JournalEntry[] {
      return prep<[string | null, string | null], JournalEntry>(
        `SELECT id, file_id AS fileId, bucket, name, size, md5, started_at AS startedAt FROM sync_journal
           WHERE settled_at IS NULL AND (? IS NULL OR bucket = ?) ORDER BY id`,
      ).all(bucket ?? null, bucket ?? null);
    },
    openFor(fileId: number): JournalEntry | null {
      return (
        prep<[number], JournalEntry>(
          `SELECT id, file_id AS fileId, bucket, name, size, md5, started_at AS startedAt FROM sync_journal
             WHERE settled_at IS NULL AND file_id = ? ORDER BY id DESC LIMIT 1`,
        ).get(fileId) ?? null
      );
    },
  };
}

export type JournalStore = ReturnType<typeof journalStore>;
