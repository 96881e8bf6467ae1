import type { Account } from '../../../../src-shared/api/file-hosting';
import { ALLOWED_EXTENSIONS } from '../../../../src-shared/domain/extensions';
import { MAX_FILE_BYTES } from '../../../../src-shared/domain/limits';
import { arrearsSentence, lowBalanceSentence } from '../../../../src-shared/domain/wallet-text';
import type { UploadRules } from '../local/local-checks';

/** The documented rules, used until /me has answered (and whenever it cannot). */
export const DOCUMENTED_RULES: UploadRules = {
  allowedExtensions: ALLOWED_EXTENSIONS,
  maxFileBytes: MAX_FILE_BYTES,
};

export function rulesFrom(account: Account): UploadRules {
  return {
    allowedExtensions: account.pricing.allowed_extensions,
    maxFileBytes: account.pricing.max_file_bytes,
  };
}

/** Whether /me says an upload would be accepted: an active account, no arrears, a wallet above the floor. */
export function uploadsAllowed(account: Account): boolean {
  return (
    account.client.status === 'ACTIVE' &&
    account.arrears.paise <= 0 &&
    account.wallet.balance_paise >= account.wallet.min_balance_to_upload_paise
  );
}

export function pauseReason(account: Account): { code: string; message: string } {
  if (account.arrears.paise > 0) {
    return {
      code: 'UPLOADS-PAUSED',
      message: arrearsSentence(account.arrears.paise),
    };
  }
  return {
    code: 'LOW-BALANCE',
    message: lowBalanceSentence(account.wallet.balance_paise, account.wallet.min_balance_to_upload_paise),
  };
}
