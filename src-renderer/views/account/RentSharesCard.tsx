import { formatRupees } from '../../../src-shared/domain/money';
import { RENT_SHARES_ROUNDING } from '../../../src-shared/domain/rent-shares';
import { formatBytes } from '../../lib/format';
import { useRentShares } from '../folders/use-rent-shares';

// A figure and its unit stay on one line at 200% zoom ("70 MiB", "₹0.01 a day").
const NOWRAP = { whiteSpace: 'nowrap' } as const;

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
              <td className="num muted" style={NOWRAP}>
                {formatBytes(f.liveBytes)}
              </td>
              <td className="num" style={NOWRAP}>
                {formatRupees(f.dailySharePaise)} a day
              </td>
            </tr>
          ))}
          <tr data-testid="rent-share-other">
            <td className="muted">Other files</td>
            <td className="num muted" style={NOWRAP}>
              {formatBytes(shares.other.bytes)}
            </td>
            <td className="num" style={NOWRAP}>
              {formatRupees(shares.other.dailySharePaise)} a day
            </td>
          </tr>
          <tr data-testid="rent-share-total">
            <td>
              <strong>Daily rent</strong>
            </td>
            <td className="num muted" style={NOWRAP}>
              {shares.accountBytes === null ? '' : formatBytes(shares.accountBytes)}
            </td>
            <td className="num" style={NOWRAP}>
              <strong>{formatRupees(shares.dailyRentPaise)} a day</strong>
            </td>
          </tr>
        </tbody>
      </table>
      {shares.rounded ? <p className="small muted">{RENT_SHARES_ROUNDING}</p> : null}
    </section>
  );
}
