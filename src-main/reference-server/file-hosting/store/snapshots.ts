import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';

export interface SnapshotRow {
  usage_date: string;
  bytes_used: number;
  files_count: number;
  rent_paise: number;
  outcome: string;
}

export function snapshotStore(db: Db) {
  const prep = statements(db);
  const since = prep(
    'SELECT usage_date, bytes_used, files_count, rent_paise, outcome FROM usage_snapshots WHERE client_id = ? AND usage_date >= ? ORDER BY usage_date DESC',
  );
  return {
    /** Snapshots dated on or after `fromDate` (YYYY-MM-DD), newest first. */
    since: (clientId: number, fromDate: string) => since.all(clientId, fromDate) as SnapshotRow[],
  };
}
