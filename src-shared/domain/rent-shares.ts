import type { Paise } from './money';

export interface RentSharesInput {
  /** The account's daily rent as the service said it (the last /me): whole paise. */
  dailyRentPaise: Paise;
  /** The bytes that rent is charged on (the same /me's `usage.bytes_used`). */
  accountBytes: number;
  /** Each watched folder's live bytes on the service. */
  folders: readonly { id: number; bytes: number }[];
}

export interface RentShares {
  folders: { id: number; bytes: number; paise: Paise }[];
  /** The account's files no watched folder holds (the Files view's uploads, other installs). */
  other: { bytes: number; paise: Paise };
  /** The whole: the folders' and other files' shares add up to exactly this. */
  dailyRentPaise: Paise;
  /** Some share is not exact to the paisa: the view says once that they are rounded to add up. */
  rounded: boolean;
}

/**
 * Each folder's share of the daily rent, from the same bytes as the account's rent, in whole paise
 * that add up to it (issue 31: a folder with 196 of the account's 198 MiB said ₹0.02 of ₹0.03).
 *
 * The rent is split by bytes, and the paise the rounding down leaves are handed one each to the
 * largest remainders (Hamilton's method; ties to the larger part, then folders before "other
 * files", then the lower folder id, so every window computes the same). When the folders hold more
 * bytes than the /me counted (files gone live since it was read), the folders' bytes are the whole
 * and "other files" is nothing.
 */
export function rentShares(input: RentSharesInput): RentShares {
  const rent = Math.max(0, Math.trunc(input.dailyRentPaise));
  const folders = [...input.folders]
    .map((f) => ({ id: f.id, bytes: Math.max(0, f.bytes) }))
    .sort((a, b) => a.id - b.id);
  const inFolders = folders.reduce((s, f) => s + f.bytes, 0);
  const otherBytes = Math.max(0, input.accountBytes - inFolders);
  const whole = inFolders + otherBytes;
  const parts = [
    ...folders.map((f, i) => ({ key: i, bytes: f.bytes, order: i })),
    { key: -1, bytes: otherBytes, order: folders.length },
  ];
  if (whole <= 0 || rent === 0) {
    // Nothing stored, or no rent: every share is nothing, but "other files" carries a rent with no
    // bytes behind it (a /me with rent and no bytes) so that the parts still add up.
    return {
      folders: folders.map((f) => ({ ...f, paise: 0 })),
      other: { bytes: otherBytes, paise: rent },
      dailyRentPaise: rent,
      rounded: false,
    };
  }
  // Exact in integers: bytes x rent fits a double for any real account (2^53 / 10^7 paise ~ 900 TB).
  const shares = parts.map((p) => {
    const num = p.bytes * rent;
    return { ...p, paise: Math.floor(num / whole), rest: num % whole };
  });
  let left = rent - shares.reduce((s, p) => s + p.paise, 0);
  const rounded = shares.some((p) => p.rest !== 0);
  const byRest = [...shares].sort((a, b) => b.rest - a.rest || b.bytes - a.bytes || a.order - b.order);
  for (const p of byRest) {
    if (left <= 0) break;
    if (p.rest === 0) continue;
    p.paise++;
    left--;
  }
  const other = shares.find((p) => p.key === -1)!;
  return {
    folders: folders.map((f, i) => ({ ...f, paise: shares[i]!.paise })),
    other: { bytes: otherBytes, paise: other.paise },
    dailyRentPaise: rent,
    rounded,
  };
}

/** The one sentence on rounding, said where the shares are listed together (Account). */
export const RENT_SHARES_ROUNDING =
  "Each share is rounded to the paisa so that together they make the day's rent.";
