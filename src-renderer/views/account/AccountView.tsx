import { useEffect } from 'react';
import { formatRupees, runwayDays } from '../../../src-shared/domain/money';
import { formatServiceTime } from '../../../src-shared/domain/time-format';
import { codeAsWord } from '../../../src-shared/domain/words';
import { Icon } from '../../components/Icon';
import { SCROLL_REGION, ViewHeader } from '../../components/ViewHeader';
import { parseServiceDate, timeLeft } from '../../lib/dates';
import { formatBytes } from '../../lib/format';
import { plural } from '../../lib/plural';
import { useAccount } from '../../stores/account-store';
import { useServiceNow } from '../../stores/clock-store';
import { RentSharesCard } from './RentSharesCard';

export function AccountView() {
  const cached = useAccount((s) => s.account);
  const load = useAccount((s) => s.loadAccount);
  useEffect(() => {
    void load(true);
  }, [load]);
  const a = cached?.value;

  return (
    <>
      <ViewHeader title="Account" fetchedAt={cached?.fetchedAt ?? null} offline={cached?.offline}>
        <button type="button" className="btn" onClick={() => void load(true)}>
          <Icon name="refresh" /> Refresh
        </button>
      </ViewHeader>
      <div className="content stack" {...SCROLL_REGION}>
        {!a ? (
          <div className="card empty">{cached?.error ? cached.error.message : 'Loading the account…'}</div>
        ) : (
          <>
            <div className="row muted small">
              <span>
                <strong style={{ color: 'var(--text)' }}>{a.client.name}</strong> · client #{a.client.id} ·
                default bucket <span className="mono">{a.client.default_bucket}</span>
              </span>
              <span
                className={`badge ${a.client.status === 'ACTIVE' ? 'ok' : a.client.status === 'CLOSED' ? 'danger' : 'warn'}`}
              >
                {/* "Active", not the service's "ACTIVE". */}
                {codeAsWord(a.client.status)}
              </span>
            </div>
            <div className="grid">
              <Wallet a={a} />
              <Stat
                label="Daily rent"
                value={formatRupees(a.usage.daily_rent_paise)}
                hint={`${formatBytes(a.usage.bytes_used)} in ${plural(a.usage.files_count, 'file')}`}
              />
              <Stat
                label="This month, estimated"
                value={formatRupees(a.usage.monthly_estimate_paise)}
                hint={`at ${formatRupees(a.pricing.per_gb_month_paise)} per GiB a month`}
              />
              <Runway a={a} />
            </div>
            <Arrears a={a} />
            <RentSharesCard />
            <section className="card" aria-labelledby="pricing-title">
              <h2 id="pricing-title">Pricing and limits</h2>
              <table className="table kv">
                <tbody>
                  <tr>
                    <td className="muted">Storage</td>
                    <td>
                      {formatRupees(a.pricing.per_gb_month_paise)} per GiB per month, charged daily; no upload
                      or download fees
                    </td>
                  </tr>
                  <tr>
                    <td className="muted">Upload floor</td>
                    <td>
                      Uploads need at least {formatRupees(a.wallet.min_balance_to_upload_paise)} in the wallet
                    </td>
                  </tr>
                  <tr>
                    <td className="muted">Largest file</td>
                    <td>
                      {formatBytes(a.pricing.max_file_bytes)} ({a.pricing.max_file_bytes.toLocaleString()}{' '}
                      bytes); empty files are refused
                    </td>
                  </tr>
                  <tr>
                    <td className="muted">Grace period</td>
                    <td>{a.pricing.grace_days} days of unpaid rent before the account is closed</td>
                  </tr>
                  <tr>
                    <td className="muted">File types</td>
                    <td>
                      {/* One unbreakable item per type, its separator attached to it: as one string
                          the list could wrap with a "·" first on a line. */}
                      <ul className="type-list mono">
                        {a.pricing.allowed_extensions.map((ext, i, all) => (
                          <li key={ext}>
                            {ext}
                            {i < all.length - 1 ? <span aria-hidden="true"> ·</span> : null}
                          </li>
                        ))}
                      </ul>
                    </td>
                  </tr>
                </tbody>
              </table>
            </section>
          </>
        )}
      </div>
    </>
  );
}

type A = NonNullable<ReturnType<typeof useAccount.getState>['account']>['value'] & object;

function Wallet({ a }: { a: A }) {
  const under = a.wallet.balance_paise < a.wallet.min_balance_to_upload_paise;
  return (
    <div className="card stat" data-testid="wallet">
      <div className="label">Wallet</div>
      <div className="value" style={{ color: under ? 'var(--danger)' : undefined }}>
        {formatRupees(a.wallet.balance_paise)}
      </div>
      <div className="hint">
        {under ? (
          <span style={{ color: 'var(--warn)' }}>
            Under the {formatRupees(a.wallet.min_balance_to_upload_paise)} the wallet must hold for uploads:
            uploads are refused
          </span>
        ) : (
          // "above the upload floor" named a rule nobody had explained (issue 34).
          `${formatRupees(a.wallet.balance_paise - a.wallet.min_balance_to_upload_paise)} above the ${formatRupees(a.wallet.min_balance_to_upload_paise)} the wallet must hold for uploads`
        )}
      </div>
    </div>
  );
}

function Runway({ a }: { a: A }) {
  const days = runwayDays(a.wallet.balance_paise, a.usage.daily_rent_paise);
  return (
    <Stat
      label="Runway"
      value={days === null ? 'No rent due' : plural(days, 'day')}
      hint={days === null ? 'Nothing stored costs a paisa a day yet' : "at today's rent"}
    />
  );
}

function Arrears({ a }: { a: A }) {
  const now = useServiceNow();
  if (a.arrears.paise <= 0) return null;
  const deadline = parseServiceDate(a.arrears.deadline);
  const left = deadline === null ? undefined : timeLeft(deadline, now);
  return (
    <section
      className="card"
      style={{ borderColor: 'var(--danger)' }}
      aria-labelledby="arrears-title"
      data-testid="arrears"
    >
      <h2 id="arrears-title" style={{ color: 'var(--danger)' }}>
        {formatRupees(a.arrears.paise)} in arrears
      </h2>
      <p>
        Unpaid since{' '}
        <strong>{a.arrears.since ? formatServiceTime(a.arrears.since) : 'a time not given'}</strong>. Uploads
        are paused; files stay online.
      </p>
      <p>
        {left !== undefined ? (
          <strong className="num" data-testid="arrears-countdown">
            {left ?? 'No time'} left before closing (
            {a.arrears.deadline ? formatServiceTime(a.arrears.deadline) : 'no date given'})
          </strong>
        ) : null}{' '}
        — the account and every file are removed after {a.pricing.grace_days} days unpaid. A top-up that
        covers the arrears resumes uploads at once.
      </p>
    </section>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint: string }) {
  return (
    <div className="card stat">
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      <div className="hint">{hint}</div>
    </div>
  );
}
