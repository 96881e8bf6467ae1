import type { Account } from '../../../../src-shared/api/file-hosting';
import { formatIstMinute } from '../../../../src-shared/domain/ist-time';
import {
  dailyRentFor,
  forecastWallet,
  gbFromAccount,
  monthlyFor,
  type WalletForecast,
} from '../../../../src-shared/domain/rent-forecast';
import type { FolderPlan } from './plan-folder';

/** What the plan adds to the bill, by the service's own rules (src-shared/domain/rent-forecast.ts). */
export interface PlanBill {
  bytesNow: number;
  bytesAfter: number;
  dailyRentNowPaise: number;
  dailyRentAfterPaise: number;
  monthlyAfterPaise: number;
  /** This folder's share of the daily rent after the sync: its live bytes' part of the account's bytes. */
  folderShareDailyPaise: number;
  walletPaise: number;
  floorPaise: number;
  /** The wallet at the new rent, on the service clock. */
  after: WalletForecast;
  /** What content dedupe saves (or, when on, saved): requests and rent per day. */
  dedupeSaves: { requests: number; bytes: number; dailyRentPaise: number };
  /** The service time the forecast was made at. */
  at: string;
}

export function billOf(plan: FolderPlan, me: Account, serviceNowMs: number, dedupeOn: boolean): PlanBill {
  const price = me.pricing.per_gb_month_paise;
  const gb = gbFromAccount(me.usage.bytes_used, me.usage.daily_rent_paise, price);
  const bytesNow = me.usage.bytes_used;
  const bytesAfter = Math.max(0, bytesNow + plan.upload.bytes - plan.replacedBytes);
  const dailyRentAfterPaise = dailyRentFor(bytesAfter, price, gb);
  const folderBytes = plan.alreadyLive.bytes + plan.upload.bytes + plan.linked.bytes;
  // Dedupe's saving: the copies it links (on) or would link (off); the rent of bytes never added.
  const saved = dedupeOn ? plan.linked : plan.onService;
  const withCopies = dedupeOn ? bytesAfter + saved.bytes : bytesAfter;
  const withoutCopies = dedupeOn ? bytesAfter : Math.max(0, bytesAfter - saved.bytes);
  return {
    bytesNow,
    bytesAfter,
    dailyRentNowPaise: me.usage.daily_rent_paise,
    dailyRentAfterPaise,
    monthlyAfterPaise: monthlyFor(dailyRentAfterPaise),
    folderShareDailyPaise:
      bytesAfter > 0 ? Math.floor((dailyRentAfterPaise * Math.min(folderBytes, bytesAfter)) / bytesAfter) : 0,
    walletPaise: me.wallet.balance_paise,
    floorPaise: me.wallet.min_balance_to_upload_paise,
    after: forecastWallet(
      me.wallet.balance_paise,
      dailyRentAfterPaise,
      me.wallet.min_balance_to_upload_paise,
      serviceNowMs,
    ),
    dedupeSaves: {
      requests: saved.count,
      bytes: saved.bytes,
      dailyRentPaise: dailyRentFor(withCopies, price, gb) - dailyRentFor(withoutCopies, price, gb),
    },
    at: formatIstMinute(serviceNowMs),
  };
}
