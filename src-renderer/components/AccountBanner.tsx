import { formatRupees } from '../../src-shared/domain/money';
import { RUNWAY_ALERT_DAYS_DEFAULT, runwayWarnings } from '../../src-shared/domain/runway-alerts';
import { formatServiceTime } from '../../src-shared/domain/time-format';
import { lowBalanceSentence } from '../../src-shared/domain/wallet-text';
import { clockTime } from '../lib/clock-time';
import { parseServiceDate, timeLeft } from '../lib/dates';
import { useAccount } from '../stores/account-store';
import { useServiceNow } from '../stores/clock-store';
import { useSync } from '../stores/sync-store';
import { useUi } from '../stores/ui-store';
import { CheckNowButton } from './CheckNowButton';
import { Icon } from './Icon';

/**
 * Across every view: what is held and what to do. Arrears and a closed account come from /me;
 * a key refused (401) or an upload floor comes from the sync engine's last reaction.
 */
export function AccountBanner() {
  const account = useAccount((s) => s.account?.value ?? null);
  const held = useSync((s) => s.overview?.held ?? null);
  const go = useUi((s) => s.go);
  const view = useUi((s) => s.view);
  const nextCheckAt = useSync((s) => s.overview?.nextCheckAt ?? null);
  // Paused for money: when the service is asked next, and a way to ask now (a top-up was just made).
  const recheck = (
    <>
      {nextCheckAt !== null ? (
        <span className="muted num" data-testid="next-check">
          Next check at {clockTime(nextCheckAt)}.{' '}
        </span>
      ) : null}
      <CheckNowButton />
    </>
  );
  const now = useServiceNow();
  const alertDays = useUi((s) => s.settings?.runwayAlertDays ?? RUNWAY_ALERT_DAYS_DEFAULT);

  // Statuses beyond ACTIVE are undocumented; the sandbox says PAUSED in arrears and CLOSED at the end.
  if (account && account.client.status === 'CLOSED') {
    return (
      <Banner tone="danger" title="This account is closed">
        Its files were removed and every request is refused. Contact the service to reopen it, or connect
        another account in Settings.
      </Banner>
    );
  }
  if (held?.code === 'CLIENT-CLOSED') {
    return (
      <Banner tone="danger" title="This account is closed">
        {held.message}
      </Banner>
    );
  }
  if (account && account.arrears.paise > 0) {
    const deadline = parseServiceDate(account.arrears.deadline);
    const left = deadline === null ? undefined : timeLeft(deadline, now);
    return (
      <Banner tone="danger" title={`Uploads paused: ${formatRupees(account.arrears.paise)} of rent unpaid`}>
        Files stay online and can be downloaded and deleted; new uploads wait in the queue.
        {account.arrears.since ? ` In arrears since ${formatServiceTime(account.arrears.since)}.` : ''}{' '}
        {left !== undefined && account.arrears.deadline ? (
          <strong className="num" data-testid="banner-countdown">
            {left
              ? `${left} left before the account is closed`
              : 'The deadline has passed: the account closes'}{' '}
            ({formatServiceTime(account.arrears.deadline)}).
          </strong>
        ) : null}{' '}
        Top up the wallet to cover the arrears; uploads resume by themselves. {recheck}{' '}
        {view !== 'account' ? (
          <button type="button" className="btn small" onClick={() => go('account')}>
            See account
          </button>
        ) : null}
      </Banner>
    );
  }
  const under = account !== null && account.wallet.balance_paise < account.wallet.min_balance_to_upload_paise;
  if (held?.code === 'LOW-BALANCE' || (held?.code !== 'UNAUTHENTICATED' && under)) {
    return (
      <Banner
        tone="warn"
        title={
          held
            ? 'Uploads paused: the wallet is under the upload floor'
            : 'The wallet is under the upload floor'
        }
      >
        {account
          ? lowBalanceSentence(account.wallet.balance_paise, account.wallet.min_balance_to_upload_paise)
          : 'The wallet holds less than uploads need. Top up to resume.'}{' '}
        {held ? recheck : null}
      </Banner>
    );
  }
  if (held && ['UPLOADS-PAUSED', 'UNAUTHENTICATED'].includes(held.code)) {
    const title =
      held.code === 'UNAUTHENTICATED' ? 'The API key was refused' : 'Uploads paused by the service';
    return (
      <Banner tone="warn" title={title}>
        {held.message} {held.code === 'UPLOADS-PAUSED' ? recheck : null}
      </Banner>
    );
  }
  const runway = account ? runwayWarnings(account, now, alertDays)[0] : undefined;
  if (runway) {
    return (
      <Banner tone="warn" title={runway.title}>
        {runway.body}
      </Banner>
    );
  }
  return null;
}

function Banner({
  tone,
  title,
  children,
}: {
  tone: 'warn' | 'danger';
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div className={`banner ${tone}`} role="alert" data-testid="account-banner">
      <span style={{ width: '1.25rem', flex: 'none' }}>
        <Icon name="alert" />
      </span>
      <div>
        <strong>{title}</strong>
        <span className="body small">{children}</span>
      </div>
    </div>
  );
}
