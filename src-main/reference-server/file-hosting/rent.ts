import { DAY_MS } from '../../../src-shared/domain/ist-time';

/**
 * Rent rules. A GB is binary (2^30 bytes), the unit the document's own 200 MB = 209,715,200 bytes uses;
 * a month is 30 days. A day's rent is rounded down to whole paise, so a day under one paisa is free.
 */
export const BYTES_PER_GB = 1024 ** 3;
export const DAYS_PER_MONTH = 30;
export const GRACE_DAYS = 30;
export const GRACE_MS = GRACE_DAYS * DAY_MS;

export function dailyRentPaise(bytes: number, perGbMonthPaise: number): number {
  // BigInt: bytes x price can pass 2^53 for large accounts.
  return Number((BigInt(bytes) * BigInt(perGbMonthPaise)) / BigInt(BYTES_PER_GB * DAYS_PER_MONTH));
}

/** What 30 days at today's size will actually cost: the sum of 30 daily charges. */
export function monthlyEstimatePaise(bytes: number, perGbMonthPaise: number): number {
  return dailyRentPaise(bytes, perGbMonthPaise) * DAYS_PER_MONTH;
}
