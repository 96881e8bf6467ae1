/** Money is integer paise everywhere; rupees exist only for display. */
export type Paise = number;

/** "₹1,234.50" in the Indian grouping the service's users read. */
export function formatRupees(paise: Paise): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(paise));
  const rupees = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}₹${groupIndian(rupees)}.${rest}`;
}

function groupIndian(n: number): string {
  const s = String(n);
  if (s.length <= 3) return s;
  const last3 = s.slice(-3);
  const head = s.slice(0, -3).replace(/\B(?=(\d{2})+(?!\d))/g, ',');
  return `${head},${last3}`;
}

/** Whole days the wallet lasts at a daily rent; null when nothing is charged. */
export function runwayDays(balancePaise: Paise, dailyRentPaise: Paise): number | null {
  if (dailyRentPaise <= 0) return null;
  return Math.max(0, Math.floor(balancePaise / dailyRentPaise));
}

/** A GB of the price list is 2^30 bytes, a month 30 days (docs/reference-server.md, "Units and money"). */
const GIB = 2 ** 30;

/** The service's daily rent of `bytes`: floor(bytes x price per GB-month / (2^30 x 30)) paise. */
export function dailyRentPaise(bytes: number, perGbMonthPaise: Paise): Paise {
  return Math.floor((bytes * perGbMonthPaise) / (GIB * 30));
}

/**
 * What deleting `bytes` of `bytesUsed` takes off the next day's rent: the difference of the two
 * rounded rents, so a delete that leaves the rent under a paisa says ₹0.00 truly.
 */
export function rentSavedPaise(bytesUsed: number, bytes: number, perGbMonthPaise: Paise): Paise {
  const after = Math.max(0, bytesUsed - bytes);
  return dailyRentPaise(bytesUsed, perGbMonthPaise) - dailyRentPaise(after, perGbMonthPaise);
}
