import type { Account } from '../../../src-shared/api/file-hosting';
import { formatBytes } from '../../../src-shared/domain/bytes';
import { parseIst } from '../../../src-shared/domain/ist-time';
import { formatRupees, runwayDays } from '../../../src-shared/domain/money';
import { codeAsWord } from '../../../src-shared/domain/words';
import { EXIT, parseCommand, withConnection } from '../common';
import { forTerminal } from '../terminal-text';

const USAGE = `assets-sync account
  The account: wallet in rupees, the upload floor, daily rent, monthly estimate, runway, arrears and
  pricing. Offline, the last copy fetched is shown with its time.`;

export async function run(argv: string[]): Promise<number> {
  const p = parseCommand('account', argv, { options: {}, usage: USAGE, readOnly: true });
  if (!p.ok) return p.exitCode;
  const { common, out } = p;
  return withConnection(common, out, async (s) => {
    const me = await s.client.me();
    let account: Account;
    let fetchedAt: string;
    let offline = false;
    if (me.ok) {
      account = me.value;
      fetchedAt = new Date().toISOString();
      s.state.cache.putAccount(s.connection.cacheSource, account);
    } else {
      const cached =
        me.error.reaction === 'retry' ? s.state.cache.getAccount(s.connection.cacheSource) : null;
      if (!cached) {
        out.error(me.error);
        return EXIT.failed;
      }
      out.note(
        `The service is unreachable (${me.error.code}); showing the copy fetched at ${cached.fetchedAt}.`,
      );
      account = cached.value;
      fetchedAt = cached.fetchedAt;
      offline = true;
    }
    const view = accountView(account, Date.now());
    out.emit(renderAccount(account, view, s.connection.baseUrl, s.connection.kind), {
      event: 'account',
      source: s.connection.kind,
      base_url: s.connection.baseUrl,
      fetched_at: fetchedAt,
      offline,
      account,
      ...view,
    });
    return EXIT.ok;
  });
}

/** What the command derives from /me: numbers a person needs that the API leaves to arithmetic. */
export function accountView(a: Account, now: number) {
  const deadlineAt = a.arrears.deadline ? parseIst(a.arrears.deadline) : null;
  return {
    below_upload_floor: a.wallet.balance_paise < a.wallet.min_balance_to_upload_paise,
    runway_days: runwayDays(a.wallet.balance_paise, a.usage.daily_rent_paise),
    in_arrears: a.arrears.paise > 0,
    days_to_deadline: deadlineAt === null ? null : Math.max(0, Math.ceil((deadlineAt - now) / 86_400_000)),
  };
}

function renderAccount(a: Account, v: ReturnType<typeof accountView>, baseUrl: string, kind: string): string {
  const rows: [string, string][] = [
    [
      'Account',
      `${forTerminal(a.client.name)} (client ${a.client.id}, ${codeAsWord(a.client.status).toLowerCase()}) at ${baseUrl}${kind === 'sandbox' ? ' [sandbox]' : ''}`,
    ],
    [
      'Wallet',
      `${formatRupees(a.wallet.balance_paise)} (upload floor ${formatRupees(a.wallet.min_balance_to_upload_paise)})`,
    ],
    [
      'Stored',
      `${a.usage.files_count} files, ${formatBytes(a.usage.bytes_used)}, default bucket "${a.client.default_bucket}"`,
    ],
    [
      'Rent',
      `${formatRupees(a.usage.daily_rent_paise)} a day, about ${formatRupees(a.usage.monthly_estimate_paise)} a month`,
    ],
    [
      'Runway',
      v.runway_days === null ? 'no rent is charged at this usage' : `${v.runway_days} days at today's rent`,
    ],
    [
      'Arrears',
      v.in_arrears
        ? `${formatRupees(a.arrears.paise)} since ${a.arrears.since ?? '?'}; deadline ${a.arrears.deadline ?? '?'}` +
          (v.days_to_deadline === null ? '' : ` (${v.days_to_deadline} days left)`)
        : 'none',
    ],
    [
      'Pricing',
      `${formatRupees(a.pricing.per_gb_month_paise)} per GiB-month, files up to ${formatBytes(a.pricing.max_file_bytes)}, ` +
        `${a.pricing.grace_days} days of grace`,
    ],
    ['Allowed', a.pricing.allowed_extensions.join(', ')],
  ];
  const lines = rows.map(([k, val]) => `${k.padEnd(9)}${val}`);
  if (v.in_arrears) {
    lines.push(
      'Uploads are paused until a top-up covers the arrears; after the deadline the account closes and its files are deleted.',
    );
  } else if (v.below_upload_floor) {
    lines.push(
      `Uploads need at least ${formatRupees(a.wallet.min_balance_to_upload_paise)} in the wallet: top up to upload.`,
    );
  }
  return lines.join('\n');
}
