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
