import { useState } from 'react';
import { call } from '../api/core-ref';
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
        await orToast(call('sync.checkNow', {}));
        setBusy(false);
      }}
    >
      Check now
    </button>
  );
}
