import { Fragment } from 'react';
import { formatRupees } from '../../../src-shared/domain/money';
import { RENT_SHARES_ROUNDING } from '../../../src-shared/domain/rent-shares';
import { formatBytes } from '../../lib/format';
import { useRentShares } from '../folders/use-rent-shares';

// A figure and its unit stay on one line at 200% zoom ("₹0.01 a day"); a folder's long path wraps.
const NOWRAP = { whiteSpace: 'nowrap', textAlign: 'right' } as const;

/** Account: the daily rent split by watched folder, the rest as "other files"; the parts add up to it. */
export function RentSharesCard() {
  const shares = useRentShares();
  if (!shares || shares.dailyRentPaise === null || shares.folders.length === 0) return null;
  const part = (
    name: React.ReactNode,
    bytes: number | null,
    paise: number,
    testId: string,
    total = false,
  ) => (
    <tr data-testid={testId}>
      <td style={{ overflowWrap: 'anywhere' }}>
        {name}
        {bytes === null ? null : <div className="small muted num">{formatBytes(bytes)}</div>}
      </td>
      <td className="num" style={NOWRAP}>
        {total ? <strong>{formatRupees(paise)} a day</strong> : `${formatRupees(paise)} a day`}
      </td>
    </tr>
  );
  return (
    <section className="card" aria-labelledby="rent-shares-title" data-testid="rent-shares">
      <h2 id="rent-shares-title">Share of the daily rent</h2>
      <table className="table">
        <tbody>
          {shares.folders.map((f) => (
            <Fragment key={f.folderId}>
              {part(
                <span className="mono">{f.path}</span>,
                f.liveBytes,
                f.dailySharePaise,
                'rent-share-folder',
              )}
            </Fragment>
          ))}
          {part('Other files', shares.other.bytes, shares.other.dailySharePaise, 'rent-share-other')}
          {part(
            <strong>Daily rent</strong>,
            shares.accountBytes,
            shares.dailyRentPaise,
            'rent-share-total',
            true,
          )}
        </tbody>
      </table>
      {shares.rounded ? <p className="small muted">{RENT_SHARES_ROUNDING}</p> : null}
    </section>
  );
}
