import { formatRupees } from '../../../src-shared/domain/money';
import { useRentShares } from './use-rent-shares';

/**
 * The folder card's line: its share of the daily rent (its live bytes' part of the account's, last
 * /me), the same split as Account's, where the rounding is said.
 */
export function FolderRentShare({ folderId }: { folderId: number; live?: number }) {
  const shares = useRentShares();
  if (!shares || shares.dailyRentPaise === null) return null;
  const share = shares.folders.find((f) => f.folderId === folderId)?.dailySharePaise ?? 0;
  return (
    <div className="small muted" data-testid="folder-rent-share">
      Share of the daily rent: <span className="num">{formatRupees(share)}</span> a day
    </div>
  );
}
