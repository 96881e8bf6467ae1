import { formatRupees } from '../../../src-shared/domain/money';
import { RENT_SHARES_ROUNDING } from '../../../src-shared/domain/rent-shares';
import { formatBytes } from '../../lib/format';
import { useRentShares } from '../folders/use-rent-shares';

/** Account: the daily rent split by watched folder, the rest as "other files"; the parts add up to it. */
export function RentSharesCard() {
  const shares = useRentShares();
  if (!shares || shares.dailyRentPaise === null || shares.folders.length === 0) return null;
  return (
    <section className="card" aria-labelledby="rent-shares-title" data-testid="rent-shares">
      <h2 id="rent-shares-title">Share of the daily rent</h2>
      <table className="table kv">
        <tbody>
          {shares.folders.map((f) => (
            <tr key={f.folderId} data-testid="rent-share-folder">
              <td className="mono" style={{ overflowWrap: 'anywhere' }}>
                {f.path}
              </td>
              <td className="num muted">{formatBytes(f.liveBytes)}</td>
              <td className="num">{formatRupees(f.dailySharePaise)} a day</td>
            </tr>
          ))}
          <tr data-testid="rent-share-other">
            <td className="muted">Other files</td>
            <td className="num muted">{formatBytes(shares.other.bytes)}</td>
            <td className="num">{formatRupees(shares.other.dailySharePaise)} a day</td>
          </tr>
          <tr data-testid="rent-share-total">
            <td>
              <strong>Daily rent</strong>
            </td>
            <td className="num muted">
              {shares.accountBytes === null ? '' : formatBytes(shares.accountBytes)}
            </td>
            <td className="num">
              <strong>{formatRupees(shares.dailyRentPaise)} a day</strong>
            </td>
          </tr>
        </tbody>
      </table>
      {shares.rounded ? <p className="small muted">{RENT_SHARES_ROUNDING}</p> : null}
    </section>
  );
}
