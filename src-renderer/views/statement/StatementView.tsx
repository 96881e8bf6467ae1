import { useCallback, useEffect, useState } from 'react';
import type { Share, Statement } from '../../../src-shared/contract/statement';
import { formatRupees } from '../../../src-shared/domain/money';
import { creditWindowText } from '../../../src-shared/domain/statement/month-statement';
import { statementCsv } from '../../../src-shared/domain/statement/statement-csv';
import { formatServiceDate, formatServiceMonth } from '../../../src-shared/domain/time-format';
import type { AppError } from '../../../src-shared/errors';
import { call } from '../../api/core-ref';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { saveBytes, saveText } from '../files/save-file';
import { fromBase64, shiftMonth } from './month-and-bytes';

/** The days' scroll box is reached by keyboard to scroll it (WCAG 2.1.1), as each view's content is. */
const DAYS_SCROLL = { tabIndex: 0, role: 'region', 'aria-label': 'Days of the month' } as const;
const money = (p: number | null) => (p === null ? 'unknown' : formatRupees(p));

/**
 * The admin's month (issue 35): the wallet's statement for one IST month of the service's clock, the
 * app's own check of every day's rent with the days that do not fit, the credits it inferred, and where
 * the money goes; CSV and PDF for the accountant.
 */
export function StatementView() {
  const [month, setMonth] = useState<string | null>(null);
  const [statement, setStatement] = useState<Statement | null>(null);
  const [error, setError] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const [fetchedAt, setFetchedAt] = useState<number | null>(null);

  const load = useCallback(async (m: string | null, refresh = true) => {
    setBusy(true);
    const r = await call('statement.get', m ? { month: m, refresh } : { refresh });
    setBusy(false);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(null);
    setStatement(r.value);
    setMonth(r.value.month);
    setFetchedAt(Date.now());
  }, []);
  useEffect(() => {
    void load(null);
  }, [load]);

  const exportPdf = async () => {
    if (!month) return;
    const r = await call('statement.pdf', { month, refresh: false });
    if (!r.ok) setError(r.error);
    else saveBytes(r.value.fileName, 'application/pdf', fromBase64(r.value.base64));
  };
  const s = statement;

  return (
    <>
      <ViewHeader title="Statement" fetchedAt={fetchedAt}>
        <button
          type="button"
          className="btn"
          aria-label="Previous month"
          disabled={!month || busy}
          onClick={() => month && void load(shiftMonth(month, -1))}
        >
          ‹
        </button>
        <label className="visually-hidden" htmlFor="statement-month">
          Month
        </label>
        <input
          id="statement-month"
          type="month"
          value={month ?? ''}
          onChange={(e) => /^\d{4}-\d{2}$/.test(e.target.value) && void load(e.target.value)}
        />
        <button
          type="button"
          className="btn"
          aria-label="Next month"
          disabled={!month || busy}
          onClick={() => month && void load(shiftMonth(month, 1))}
        >
          ›
        </button>
        <button type="button" className="btn" disabled={busy} onClick={() => void load(month)}>
          <Icon name="refresh" /> Refresh
        </button>
        <button
          type="button"
          className="btn"
          disabled={!s}
          onClick={() => s && saveText(`statement-${s.month}.csv`, 'text/csv', statementCsv(s))}
        >
          Export CSV
        </button>
        <button type="button" className="btn" disabled={!s} onClick={() => void exportPdf()}>
          Export PDF
        </button>
      </ViewHeader>
      <div className="content stack" {...SCROLL_REGION} data-testid="statement-view">
        {error ? (
          <div className="banner warn" role="alert">
            <span style={{ width: '1.25rem', flex: 'none' }}>
              <Icon name="alert" />
            </span>
            <span className="body">{error.message}</span>
          </div>
        ) : null}
        {!s ? (
          <div className="empty">{busy ? 'Reading the month…' : 'No statement yet.'}</div>
        ) : (
          <StatementBody s={s} />
        )}
      </div>
    </>
  );
}

function StatementBody({ s }: { s: Statement }) {
  const charged = s.days.filter((d) => !d.future);
  return (
    <>
      <section className="card stack" aria-label="Totals">
        <div className="row">
          <h2 style={{ margin: 0 }}>
            {formatServiceMonth(s.month)}
            {s.complete ? '' : ' so far'}
          </h2>
          <span className="spacer" />
          <span className="muted small">
            {s.account.name || `Client ${s.account.clientId}`} · IST days of the service&apos;s clock
          </span>
        </div>
        <table className="table" data-testid="statement-totals">
          <tbody>
            <tr>
              <td>Opening (balance − arrears)</td>
              <td className="right num">{money(s.openingPaise)}</td>
            </tr>
            <tr>
              <td>Credits to the wallet (inferred)</td>
              <td className="right num">+ {formatRupees(s.creditsPaise)}</td>
            </tr>
            <tr>
              <td>Rent charged</td>
              <td className="right num">− {formatRupees(s.rentPaise)}</td>
            </tr>
            <tr>
              <td>
                <strong>Closing</strong>
              </td>
              <td className="right num">
                <strong>{money(s.closingPaise)}</strong>
              </td>
            </tr>
          </tbody>
        </table>
        <p className="small muted" style={{ margin: 0 }}>
          {s.balances
            ? 'Opening + credits − rent = closing: it balances.'
            : 'Opening + credits − rent = closing cannot be checked: a figure is unknown (below).'}{' '}
          Arrears booked {formatRupees(s.arrearsBookedPaise)}, paid {formatRupees(s.arrearsPaidPaise)}.
        </p>
        <p className="small" style={{ margin: 0 }} data-testid="statement-rule">
          <strong>The rule found:</strong> {s.rule.sentence}
        </p>
      </section>

      <section className="card stack" aria-label="Flags" data-testid="statement-flags">
        <h2 style={{ margin: 0 }}>
          {s.flags.length ? `${plural(s.flags.length, 'day')} flagged` : 'No day flagged'}
        </h2>
        {s.flags.length ? (
          s.flags.map((f) => (
            <div key={`${f.date}-${f.kind}`} className="banner danger">
              <span style={{ width: '1.25rem', flex: 'none' }}>
                <Icon name="alert" />
              </span>
              <span className="body">{f.sentence}</span>
            </div>
          ))
        ) : (
          <p className="muted small" style={{ margin: 0 }}>
            Every day charged fits the rule found and the bytes the app held.
          </p>
        )}
        {s.credits.length ? (
          <>
            <h3 style={{ margin: 0 }}>Credits (inferred from the balances read)</h3>
            <ul className="small" style={{ margin: 0 }}>
              {s.credits.map((c) => (
                <li key={c.toMs}>
                  <span className="num">{formatRupees(c.amountPaise)}</span>{' '}
                  {creditWindowText(c.fromMs, c.toMs)}
                  {c.arrearsPaidPaise ? `, ${formatRupees(c.arrearsPaidPaise)} of it paid arrears` : ''}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {s.unknowns.map((u) => (
          <p key={u} className="small muted" style={{ margin: 0 }}>
            Unknown: {u}
          </p>
        ))}
      </section>

      <section className="card" aria-label="Days">
        {/* Seven columns: under 800 pixels the table scrolls sideways inside its card. */}
        <div style={{ overflowX: 'auto', maxWidth: '100%' }} {...DAYS_SCROLL}>
          <table className="table" data-testid="statement-days">
            <thead>
              <tr>
                <th>Day</th>
                <th className="right">Stored</th>
                <th className="right">Files</th>
                <th>Outcome</th>
                <th className="right">Rent</th>
                <th className="right">App&apos;s figure</th>
                <th className="right">Arrears booked</th>
              </tr>
            </thead>
            <tbody>
              {charged.length === 0 ? (
                <tr>
                  <td colSpan={7} className="muted">
                    No day of this month has been charged yet.
                  </td>
                </tr>
              ) : null}
              {charged.map((d) => (
                <tr key={d.date} data-flagged={d.flags.length ? 'yes' : undefined}>
                  <td className="num">
                    {formatServiceDate(d.date)}
                    {d.flags.length ? (
                      <span className="badge danger" style={{ marginLeft: 6 }}>
                        flagged
                      </span>
                    ) : null}
                  </td>
                  <td className="right num">{d.measured ? formatBytes(d.measured.bytesUsed) : 'unknown'}</td>
                  <td className="right num">
                    {d.measured ? d.measured.filesCount.toLocaleString('en') : ''}
                  </td>
                  <td>{d.measured ? d.measured.outcome.toLowerCase() : 'unknown'}</td>
                  <td className="right num">{d.measured ? formatRupees(d.measured.rentPaise) : 'unknown'}</td>
                  <td className="right num">{money(d.expectedRentPaise)}</td>
                  <td className="right num">
                    {d.arrearsBookedPaise ? formatRupees(d.arrearsBookedPaise) : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card stack" aria-label="Where the money goes">
        <h2 style={{ margin: 0 }}>Where the money goes ({formatRupees(s.breakdown.totalPaise)})</h2>
        <div
          style={{
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fit, minmax(16rem, 1fr))',
            gap: '1rem',
          }}
        >
          <Shares title="By bucket" list={s.breakdown.byBucket} />
          <Shares title="By watched folder" list={s.breakdown.byFolder} />
          <Shares title="By file type" list={s.breakdown.byType} />
          <Shares title="Largest files" list={s.breakdown.largest} />
        </div>
        <p className="small" style={{ margin: 0 }} data-testid="statement-duplicates">
          {s.breakdown.duplicates.extraCopies
            ? `Duplicates: ${plural(s.breakdown.duplicates.extraCopies, 'extra copy', 'extra copies')} (${formatBytes(s.breakdown.duplicates.bytes)}); removing them saves ${formatRupees(s.breakdown.duplicates.savingPerMonthPaise)} a month.`
            : 'Duplicates: none among the live files.'}
        </p>
      </section>
    </>
  );
}

function Shares({ title, list }: { title: string; list: Share[] }) {
  return (
    <div>
      <h3 style={{ margin: '0 0 0.25rem' }}>{title}</h3>
      <table className="table">
        <tbody>
          {list.slice(0, 10).map((x) => (
            <tr key={x.label}>
              <td style={{ overflowWrap: 'anywhere' }}>{x.label}</td>
              <td className="right num">{x.bytes ? formatBytes(x.bytes) : ''}</td>
              <td className="right num">{formatRupees(x.rentPaise)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
