import { formatRupees } from './money';
import { forecastWallet } from './rent-forecast';
import { formatServiceTime } from './time-format';

/**
 * The runway thresholds a user is warned at: the wallet falls under the upload floor within N days
 * (the setting, default 7) at today's rent, within a day, and arrears have started. Shared by the core
 * (which notifies once per threshold crossed) and the account banner (which shows the line while it holds).
 */
export type RunwayThreshold = 'floor-soon' | 'floor-tomorrow' | 'arrears';

export interface RunwayWarning {
  threshold: RunwayThreshold;
  title: string;
  body: string;
  /** The arrears deadline (service format) or the day the wallet falls under the floor. */
  when: string | null;
}

export const RUNWAY_ALERT_DAYS_DEFAULT = 7;

const ARREARS_TITLE = 'Rent unpaid: uploads are paused';

/** Which threshold a runway notification's title says (null: another alert, a statement's flag). */
export function runwayThresholdOf(title: string): RunwayThreshold | null {
  if (title === ARREARS_TITLE) return 'arrears';
  if (title === 'Uploads stop tomorrow') return 'floor-tomorrow';
  return /^Uploads stop in \d+ days?$/.test(title) ? 'floor-soon' : null;
}

/** What /me says that the warnings need (a subset of the Account schema). */
export interface RunwayAccount {
  usage: { daily_rent_paise: number };
  wallet: { balance_paise: number; min_balance_to_upload_paise: number };
  arrears: { paise: number; deadline: string | null };
}

/** The thresholds that hold now, most severe first. `serviceNowMs`: the service's clock. */
export function runwayWarnings(me: RunwayAccount, serviceNowMs: number, days: number): RunwayWarning[] {
  const out: RunwayWarning[] = [];
  if (me.arrears.paise > 0) {
    out.push({
      threshold: 'arrears',
      title: ARREARS_TITLE,
      body: `${formatRupees(me.arrears.paise)} of rent is in arrears${me.arrears.deadline ? `; the account closes and its files are removed on ${formatServiceTime(me.arrears.deadline)} unless the wallet covers it` : ''}.`,
      when: me.arrears.deadline,
    });
    return out;
  }
  const f = forecastWallet(
    me.wallet.balance_paise,
    me.usage.daily_rent_paise,
    me.wallet.min_balance_to_upload_paise,
    serviceNowMs,
  );
  // Already under the floor: the LOW-BALANCE banner says so; nothing is "coming".
  if (!f.coversFloorNow || f.daysToUnderFloor === null) return out;
  const floor = formatRupees(me.wallet.min_balance_to_upload_paise);
  const rent = formatRupees(me.usage.daily_rent_paise);
  if (f.daysToUnderFloor <= 1)
    out.push({
      threshold: 'floor-tomorrow',
      title: 'Uploads stop tomorrow',
      body: `At ${rent} a day the wallet (${formatRupees(me.wallet.balance_paise)}) falls under the ${floor} upload floor at tonight's charge (${f.underFloorOn}). Top up to keep uploading.`,
      when: f.underFloorOn,
    });
  if (f.daysToUnderFloor <= days)
    out.push({
      threshold: 'floor-soon',
      title: `Uploads stop in ${f.daysToUnderFloor} day${f.daysToUnderFloor === 1 ? '' : 's'}`,
      body: `At ${rent} a day the wallet (${formatRupees(me.wallet.balance_paise)}) falls under the ${floor} upload floor on ${f.underFloorOn}.`,
      when: f.underFloorOn,
    });
  return out;
}
