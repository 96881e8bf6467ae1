import { useEffect } from 'react';
import { USAGE_RANGES } from '../../../src-shared/contract';
import { formatRupees } from '../../../src-shared/domain/money';
import { formatServiceDate } from '../../../src-shared/domain/time-format';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useAccount } from '../../stores/account-store';
import { UsageChart } from './UsageChart';
import { OUTCOME_WORD, outcomeText, totalsByOutcome, unpaidNow } from './usage-totals';

export function UsageView() {
  const range = useAccount((s) => s.range);
  const usage = useAccount((s) => s.usage[s.range]);
  const load = useAccount((s) => s.loadUsage);
  const loadAccount = useAccount((s) => s.loadAccount);
  useEffect(() => {
    void load();
  }, [load]);
  const days = usage?.value ?? [];
  const totals = totalsByOutcome(days);
  // Today's arrears come from the account snapshot (/me), the same copy the banner and the sidebar read.
  const arrears = useAccount((s) => s.account?.value?.arrears.paise ?? null);
  const unpaid = unpaidNow(arrears, totals);

  return (
    <>
      <ViewHeader title="Usage" fetchedAt={usage?.fetchedAt ?? null} offline={usage?.offline}>
        <fieldset className="segmented">
          <legend className="visually-hidden">Range</legend>
          {USAGE_RANGES.map((r) => (
            <button key={r} type="button" aria-pressed={r === range} onClick={() => void load(r)}>
              {r} days
            </button>
          ))}
        </fieldset>
        <button
          type="button"
          className="btn"
          onClick={() => {
            void load(range);
            // The unpaid line is /me's: Refresh reads it again too, or it shows the snapshot's old day.
            void loadAccount(true);
          }}
        >
          <Icon name="refresh" /> Refresh
        </button>
      </ViewHeader>
      <div className="content stack" {...SCROLL_REGION}>
        <section className="card stack">
          <div className="row">
            <h2 style={{ margin: 0 }}>Bytes and rent per day</h2>
            <span className="spacer" />
            <span className="muted small num">
              {plural(days.length, 'day')} measured
              {totals.map((t) => (
                <span key={t.outcome} data-testid={`usage-total-${t.outcome.toLowerCase()}`}>
                  {' '}
                  · {formatRupees(t.paise)} {OUTCOME_WORD[t.outcome] ?? t.outcome.toLowerCase()} (
                  {plural(t.days, 'day')})
                </span>
              ))}
              {unpaid ? <span data-testid="usage-unpaid"> · {unpaid}</span> : null}
            </span>
          </div>
          {days.length ? (
            <UsageChart days={days} />
          ) : (
            <div className="empty">
              No day has been measured yet. Storage is measured at each midnight (IST).
            </div>
          )}
        </section>
        {days.length ? (
          <section className="card" aria-label="Usage table">
            <table className="table" data-testid="usage-table">
              <thead>
                <tr>
                  <th>Day</th>
                  <th className="right">Stored</th>
                  <th className="right">Files</th>
                  <th className="right">Rent</th>
                  <th>Outcome</th>
                </tr>
              </thead>
              <tbody>
                {[...days]
                  .sort((a, b) => b.usage_date.localeCompare(a.usage_date))
                  .map((d) => (
                    <tr key={d.usage_date}>
                      {/* A day as the chart and every sentence write it ("30 Nov 2026"), not "2026-11-30". */}
                      <td className="num">{formatServiceDate(d.usage_date)}</td>
                      <td className="right num">{formatBytes(d.bytes_used)}</td>
                      <td className="right num">{d.files_count.toLocaleString('en')}</td>
                      <td className="right num">{formatRupees(d.rent_paise)}</td>
                      <td>
                        <span className={`badge ${d.outcome === 'CHARGED' ? 'ok' : 'warn'}`}>
                          {outcomeText(d.outcome)}
                        </span>
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </section>
        ) : null}
      </div>
    </>
  );
}
