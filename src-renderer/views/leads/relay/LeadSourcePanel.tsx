import { useEffect, useState } from 'react';
import type { ReceiverView } from '../../../../src-shared/contract/leads';
import { call } from '../../../api/core-ref';
import { formatTime } from '../../../lib/format';
import { useAppStatus } from '../../../stores/app-status';
import { useRelay } from './relay-store';

/**
 * Which source this desk's leads come from (a relay, or this computer's receiver), its state, and how
 * to set up the other. The receiver listens either way (the sandbox's demo bot posts to it).
 */
export function LeadSourcePanel({ receiver }: { receiver: ReceiverView | null }) {
  const relay = useRelay((s) => s.relay);
  useEffect(() => {
    void useRelay.getState().load();
  }, []);
  const receiving = (
    <div className="small muted" data-testid="receiver">
      {receiver?.running ? (
        <>
          This computer's receiver listens at <span className="mono">{receiver.url}</span>
        </>
      ) : (
        'The lead receiver is not running.'
      )}
      {receiver?.error ? <span className="error-text"> {receiver.error.message}</span> : null}
    </div>
  );
  if (relay?.source === 'relay') return <RelayState receiving={receiving} />;
  return (
    <section className="card stack lead-source" aria-label="Where leads come from">
      <div className="small">
        <strong>Source: this computer.</strong> Leads arrive only while it is on and reachable (the service
        tries three times in about six minutes), and only this desk sees them.
      </div>
      {receiving}
      <ConnectRelay />
    </section>
  );
}

function RelayState({ receiving }: { receiving: React.ReactNode }) {
  const relay = useRelay((s) => s.relay)!;
  const rejected = useRelay((s) => s.rejected);
  // The link's word is the status model's (src-shared/domain/status-model.ts `leadsStatus`).
  const link = useAppStatus().leads?.link ?? (relay.connected ? 'Connected' : 'Connecting');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const disconnect = async () => {
    setBusy(true);
    const r = await call('leads.disconnectRelay', {});
    setBusy(false);
    if (!r.ok) setError(r.error.message);
    else useRelay.setState({ relay: r.value });
  };
  return (
    <section className="card stack lead-source" aria-label="Where leads come from" data-testid="relay-state">
      <div className="small">
        <strong>Source: the relay</strong> at <span className="mono">{relay.url}</span>, as “{relay.deskName}
        ”. Leads wait there while this computer is off; every desk sees the same inbox.
      </div>
      {relay.sandboxBot === 'relay' ? (
        <div className="small" data-testid="sandbox-bot-source">
          The sandbox's demo bot posts to the relay too, as a real bot would.
        </div>
      ) : relay.sandboxBot === 'receiver' ? (
        <div className="small" data-testid="sandbox-bot-source">
          The sandbox's demo bot still posts straight to this computer, not to the relay: its leads arrive
          only while this app runs. To send them through the relay, stop using it and connect again by pasting
          the whole line it printed (it carries the webhook URL).
        </div>
      ) : null}
      <dl className="relay-facts small">
        <dt>State</dt>
        <dd data-testid="relay-connected">
          {link}
          {relay.error ? <span className="error-text"> {relay.error.message}</span> : null}
        </dd>
        <dt>Last pull</dt>
        <dd>{relay.lastPullAt ? formatTime(Date.parse(relay.lastPullAt)) : 'not yet'}</dd>
        <dt>Waiting at the relay</dt>
        <dd>{relay.waiting}</dd>
        {relay.expired > 0 ? (
          <>
            <dt>Lost to retention</dt>
            <dd data-testid="relay-expired">
              {relay.expired} {relay.expired === 1 ? 'lead was' : 'leads were'} deleted by the relay (older
              than it keeps them) before this desk read {relay.expired === 1 ? 'it' : 'them'}; they cannot be
              read any more.
            </dd>
          </>
        ) : null}
        <dt>Refused deliveries</dt>
        <dd data-testid="relay-rejected">
          {relay.rejected}{' '}
          {relay.rejected > 0 ? (
            <button
              type="button"
              className="btn small"
              aria-expanded={rejected !== null}
              onClick={() =>
                rejected === null
                  ? void useRelay.getState().loadRejected()
                  : useRelay.getState().hideRejected()
              }
            >
              {rejected === null ? 'Show why' : 'Hide why'}
            </button>
          ) : null}
        </dd>
      </dl>
      {rejected && rejected.length > 0 ? (
        <ul className="small relay-rejected" aria-label="Refused deliveries">
          {rejected.map((r) => (
            <li key={r.id}>
              #{r.relaySeq}, conversation {r.conversationId ?? '?'}
              {r.claimedName ? ` (“${r.claimedName}”)` : ''}: {r.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {receiving}
      {relay.from === 'env' ? (
        <div className="small muted">Set by ASSETS_RELAY_URL for this app.</div>
      ) : (
        <div className="row small">
          <span className="muted">
            To receive on this computer instead (through a tunnel), stop using the relay.
          </span>
          <button type="button" className="btn small" disabled={busy} onClick={() => void disconnect()}>
            Stop using the relay
          </button>
        </div>
      )}
      {error ? <div className="error-text small">{error}</div> : null}
    </section>
  );
}

function ConnectRelay() {
  const [open, setOpen] = useState(false);
  const [printed, setPrinted] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [deskName, setDeskName] = useState('');
  const [insecure, setInsecure] = useState(false);
  const [askInsecure, setAskInsecure] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!open)
    return (
      <div className="row small">
        <span className="muted">
          A relay on a machine that stays up keeps every lead until each desk has it: run{' '}
          <span className="mono">assets-sync relay</span> there (docs/relay.md).
        </span>
        <button type="button" className="btn small" onClick={() => setOpen(true)}>
          Receive through a relay
        </button>
      </div>
    );
  const connect = async () => {
    setBusy(true);
    setError(null);
    const r = await call('leads.connectRelay', {
      ...(printed.trim() ? { printed: printed.trim() } : {}),
      ...(url.trim() ? { url: url.trim() } : {}),
      ...(token.trim() ? { token: token.trim() } : {}),
      ...(deskName.trim() ? { deskName: deskName.trim() } : {}),
      ...(insecure ? { allowInsecure: true as const } : {}),
    });
    setBusy(false);
    if (!r.ok) {
      setError(r.error.message);
      if (r.error.code === 'RELAY-INSECURE') setAskInsecure(true);
      return;
    }
    useRelay.setState({ relay: r.value });
  };
  return (
    <form
      className="stack relay-connect"
      aria-label="Receive through a relay"
      onSubmit={(e) => {
        e.preventDefault();
        void connect();
      }}
    >
      <label className="field">
        Paste what the relay printed when it started
        <textarea
          rows={2}
          className="mono"
          value={printed}
          placeholder='{"event":"ready","url":"…","webhook_url":"…","token":"…"}'
          onChange={(e) => setPrinted(e.target.value)}
        />
      </label>
      <div className="small muted">or give its address and read token:</div>
      <label className="field">
        Relay address
        <input
          type="url"
          value={url}
          placeholder="https://leads.example.com"
          onChange={(e) => setUrl(e.target.value)}
        />
      </label>
      <label className="field">
        Read token
        <input type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
      </label>
      <label className="field">
        Your name on “handled” (optional)
        <input value={deskName} maxLength={100} onChange={(e) => setDeskName(e.target.value)} />
      </label>
      {askInsecure ? (
        <label className="row small">
          <input type="checkbox" checked={insecure} onChange={(e) => setInsecure(e.target.checked)} />
          Use http:// anyway: the token and the leads travel in clear on this network
        </label>
      ) : null}
      {error ? (
        <div className="error-text small" role="alert">
          {error}
        </div>
      ) : null}
      <div className="row">
        <button type="submit" className="btn primary" disabled={busy}>
          Connect
        </button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      <div className="small muted">
        Then paste the relay's webhook URL into each bot's editor on the service, and keep the bots' signing
        secrets here: each delivery is checked with them before it shows.
      </div>
    </form>
  );
}
