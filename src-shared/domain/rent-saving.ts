import { dailyRentPaise, formatRupees, type Paise, rentSavedPaise } from './money';

const GIB = 2 ** 30;

/**
 * What a delete of `bytes` (of `bytesUsed`) takes off the rent, in the service's terms: the daily
 * rent is floor(bytes x price / (2^30 x 30)) paise on the whole account and a month is 30 such days
 * (docs/reference-server.md, "Units and money"). When the daily charge does not move (a small delete:
 * the rent is rounded down to whole paise each day), "₹0.00 a day" alone reads as a fault, so the
 * sentence says why and gives the files' share of the list price a month, which is what they would
 * cost on a larger account.
 */
export function rentSavingSentence(
  bytesUsed: number,
  bytes: number,
  perGbMonthPaise: Paise,
  /** How many files the bytes are, when known: one file is "This file's share" (issue 34). */
  files?: number,
): string {
  const price = `at ${formatRupees(perGbMonthPaise)} per GiB a month, charged at midnight IST`;
  const day = rentSavedPaise(bytesUsed, bytes, perGbMonthPaise);
  if (day > 0)
    return `Saves ${formatRupees(day)} of rent a day, ${formatRupees(day * 30)} a month (${price}).`;
  if (bytes <= 0 || perGbMonthPaise <= 0) return `Saves no rent (${price}).`;
  const share = Math.round((bytes * perGbMonthPaise) / GIB);
  const shareText = share < 1 ? 'less than ₹0.01' : `about ${formatRupees(share)}`;
  const left = dailyRentPaise(Math.max(0, bytesUsed - bytes), perGbMonthPaise);
  return (
    `Saves less than ₹0.01 a day: rent is charged in whole paise, rounded down, so the daily charge stays ${formatRupees(left)}. ` +
    `${files === 1 ? "This file's" : "These files'"} share of the rent is ${shareText} a month (${price}).`
  );
}
