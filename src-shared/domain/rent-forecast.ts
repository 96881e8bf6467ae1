import { DAY_MS, formatIstDate, nextIstMidnight } from './ist-time';
import type { Paise } from './money';

/**
 * The service's billing rules as far as a client can know them (file-hosting API section 8): the price
 * is per GB per month, live files are measured once a day (at IST midnight) and the day's rent is
 * charged; a day under one paisa is free. The document does not say whether a GB is 10^9 or 2^30 bytes:
 * `gbFromAccount` picks the one that reproduces the rent /me reports for today's bytes, binary when
 * both (or neither) do. A month is 30 daily charges, as /me's monthly estimate.
 */
export const BINARY_GB = 1024 ** 3;
export const DECIMAL_GB = 1_000_000_000;
export const DAYS_PER_MONTH = 30;

export function dailyRentFor(bytes: number, perGbMonthPaise: Paise, gbBytes = BINARY_GB): Paise {
  if (bytes <= 0 || perGbMonthPaise <= 0) return 0;
  // BigInt: bytes x price passes 2^53 for large accounts. Rounded down: a day under one paisa is free.
  return Number((BigInt(bytes) * BigInt(perGbMonthPaise)) / BigInt(gbBytes * DAYS_PER_MONTH));
}

export const monthlyFor = (dailyRent: Paise): Paise => dailyRent * DAYS_PER_MONTH;

/** The GB size that gives /me's own daily rent for /me's own bytes. */
export function gbFromAccount(bytesUsed: number, dailyRentPaise: Paise, perGbMonthPaise: Paise): number {
  if (dailyRentFor(bytesUsed, perGbMonthPaise, BINARY_GB) === dailyRentPaise) return BINARY_GB;
  if (dailyRentFor(bytesUsed, perGbMonthPaise, DECIMAL_GB) === dailyRentPaise) return DECIMAL_GB;
  return BINARY_GB;
}

export interface WalletForecast {
  /** Whole days of rent the wallet pays before it cannot cover one; null when nothing is charged. */
  runwayDays: number | null;
  /** Whether the wallet holds the upload floor now. */
  coversFloorNow: boolean;
  /** The first IST day (YYYY-MM-DD) whose charge leaves the wallet under the floor; null: never at this rent. */
  underFloorOn: string | null;
  /** Days from now to that charge (1 = tonight's). */
  daysToUnderFloor: number | null;
  /** The first IST day whose rent the wallet cannot cover (arrears start); null: never at this rent. */
  arrearsOn: string | null;
  daysToArrears: number | null;
}

/**
 * Where the wallet goes at a steady daily rent, on the service's clock (`nowMs`: service time). The
 * first charge is at the next IST midnight, for the day that ends then.
 */
export function forecastWallet(
  balancePaise: Paise,
  dailyRentPaise: Paise,
  floorPaise: Paise,
  nowMs: number,
): WalletForecast {
  const coversFloorNow = balancePaise >= floorPaise;
  if (dailyRentPaise <= 0) {
    return {
      runwayDays: null,
      coversFloorNow,
      underFloorOn: null,
      daysToUnderFloor: null,
      arrearsOn: null,
      daysToArrears: null,
    };
  }
  const firstCharge = nextIstMidnight(nowMs);
  // The k-th charge (k >= 1) leaves balance - k x rent; it falls under the floor first at k below.
  const toFloor = coversFloorNow ? Math.floor((balancePaise - floorPaise) / dailyRentPaise) + 1 : 0;
  const toArrears = Math.max(0, Math.floor(balancePaise / dailyRentPaise)) + 1;
  // A charge at midnight is for the day that ends then: name the day it is charged on (service clock).
  const dayOf = (k: number) => formatIstDate(firstCharge + (k - 1) * DAY_MS);
  return {
    runwayDays: Math.max(0, Math.floor(balancePaise / dailyRentPaise)),
    coversFloorNow,
    underFloorOn: coversFloorNow ? dayOf(toFloor) : null,
    daysToUnderFloor: coversFloorNow ? toFloor : 0,
    arrearsOn: dayOf(toArrears),
    daysToArrears: toArrears,
  };
}
