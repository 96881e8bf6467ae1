import { useEffect, useState } from 'react';
import { formatRupees } from '../../../src-shared/domain/money';
import { call } from '../../api/core-ref';

/** The folder card's line: its share of the daily rent (its live bytes' part of the account's, last /me). */
export function FolderRentShare({ folderId, live }: { folderId: number; live: number }) {
  const [share, setShare] = useState<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `live` is the trigger (files going live change the share)
  useEffect(() => {
    let gone = false;
    void call('sync.folderRent', {}).then((r) => {
      if (gone || !r.ok || r.value.dailyRentPaise === null) return;
      setShare(r.value.folders.find((f) => f.folderId === folderId)?.dailySharePaise ?? 0);
    });
    return () => {
      gone = true;
    };
  }, [folderId, live]);
  if (share === null) return null;
  return (
    <div className="small muted" data-testid="folder-rent-share">
      Share of the daily rent: <span className="num">{formatRupees(share)}</span> a day
    </div>
  );
}
