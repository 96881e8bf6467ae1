import { useState } from 'react';
import { call } from '../api/core-ref';
import { useAccount } from '../stores/account-store';
import { orToast } from '../stores/ui-store';

/** Asks the service at once (offline, or paused for money) instead of waiting for the next try. */
export function CheckNowButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className="btn small"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        // The engine asks /me (offline, or paused for money); the banners read the account anew too.
        await Promise.all([orToast(call('sync.checkNow', {})), useAccount.getState().loadAccount(true)]);
        setBusy(false);
      }}
    >
      Check now
    </button>
  );
}
