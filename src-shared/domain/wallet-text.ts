import { formatRupees, type Paise } from './money';

/**
 * The one sentence for a wallet under the upload floor, in rupees, said once, with what to do:
 * "The wallet holds ₹0.00; uploads need ₹50.00. Top up to resume."
 */
export function lowBalanceSentence(balance: Paise, floor: Paise): string {
  return `The wallet holds ${formatRupees(balance)}; uploads need ${formatRupees(floor)}. Top up to resume.`;
}

/** The one sentence for unpaid rent: "Uploads are paused: ₹0.02 of rent is unpaid. Top up the wallet to resume." */
export function arrearsSentence(arrears: Paise): string {
  return `Uploads are paused: ${formatRupees(arrears)} of rent is unpaid. Top up the wallet to resume.`;
}
