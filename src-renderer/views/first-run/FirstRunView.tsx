import { useState } from 'react';
import { call } from '../../api/core-ref';
import { FormError, TextField } from '../../components/Field';
import { Logo } from '../../components/Icon';
import { loadConnected } from '../../stores/load-connected';
import { useUi } from '../../stores/ui-store';

/** Two doors: the embedded sandbox (works offline, nothing to set up) or a real account. */
export function FirstRunView() {
  const [busy, setBusy] = useState<'sandbox' | 'account' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  // An http:// address that is not this computer: the core refused it (PLAIN-HTTP) before sending
  // anything, and the key goes only once the person says so here.
  const [plainHttp, setPlainHttp] = useState<string | null>(null);

  const done = async (r: Awaited<ReturnType<typeof call<'session.useSandbox'>>>) => {
    setBusy(null);
    if (!r.ok && r.error.code === 'PLAIN-HTTP') return setPlainHttp(r.error.message);
    if (!r.ok) return setError(r.error.message);
    useUi.setState({ session: r.value, view: 'folders' });
    await loadConnected();
  };

  return (
    <div className="first-run">
      <div className="stack" style={{ maxWidth: '46rem', width: '100%', gap: '1.5rem' }}>
        <div className="row" style={{ gap: '1rem' }}>
          <span style={{ width: '3rem', height: '3rem', display: 'inline-block' }}>
            <Logo />
          </span>
          <div>
            <h1 id="view-title">Welcome to Assets Sync</h1>
            <p className="muted">Folders on this computer become live CDN links. Where shall we start?</p>
          </div>
        </div>
        <div className="choices">
          <section className="card choice" aria-labelledby="sandbox-title">
            <h2 id="sandbox-title">Try the local sandbox</h2>
            <p className="muted small">
              A complete copy of the service runs inside the app, with a demo account and a ₹100 wallet.
              Nothing leaves this computer. You can connect a real account later.
            </p>
            <div className="spacer" />
            <button
              type="button"
              className="btn primary"
              disabled={busy !== null}
              onClick={async () => {
                setBusy('sandbox');
                setError(null);
                await done(await call('session.useSandbox', {}));
              }}
            >
              {busy === 'sandbox' ? 'Starting the sandbox…' : 'Try the local sandbox'}
            </button>
          </section>
          <form
            className="card choice"
            aria-labelledby="connect-title"
            onSubmit={async (e) => {
              e.preventDefault();
              setBusy('account');
              setError(null);
              setPlainHttp(null);
              await done(await call('session.connect', { baseUrl, apiKey }));
            }}
          >
            <h2 id="connect-title">Connect an account</h2>
            <TextField
              label="Service address"
              type="url"
              required
              placeholder="https://files.example.com"
              value={baseUrl}
              onChange={setBaseUrl}
            />
            <TextField
              label="API key"
              type="password"
              required
              autoComplete="off"
              value={apiKey}
              onChange={setApiKey}
            />
            <p className="muted small">
              The key is checked with the service, then kept in the system keychain only.
            </p>
            {plainHttp ? (
              <div className="stack" role="alertdialog" aria-labelledby="plain-http-title">
                <p id="plain-http-title" className="error-text">
                  {plainHttp}
                </p>
                <div className="row">
                  <button
                    type="button"
                    className="btn danger"
                    disabled={busy !== null}
                    onClick={async () => {
                      setBusy('account');
                      setPlainHttp(null);
                      await done(await call('session.connect', { baseUrl, apiKey, allowPlainHttp: true }));
                    }}
                  >
                    Send the key unencrypted
                  </button>
                  <button type="button" className="btn" onClick={() => setPlainHttp(null)}>
                    Cancel
                  </button>
                </div>
              </div>
            ) : (
              <button type="submit" className="btn" disabled={busy !== null}>
                {busy === 'account' ? 'Checking the key…' : 'Connect'}
              </button>
            )}
          </form>
        </div>
        <FormError as="p" message={error} />
      </div>
    </div>
  );
}
