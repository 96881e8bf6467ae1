import { useEffect, useState } from 'react';
import type { SecretStoreStatus } from '../../../src-shared/contract/secrets';
import { call } from '../../api/core-ref';

/**
 * Where secrets are kept. The keychain by default; a machine without one (a server, WSL, a minimal
 * desktop) can keep them in an encrypted file instead, chosen here explicitly, never by the app alone.
 */
export function SecretStoreSettings() {
  const [status, setStatus] = useState<SecretStoreStatus | null>(null);
  const [choosing, setChoosing] = useState(false);
  const [passphrase, setPassphrase] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void call('secrets.status', {}).then((r) => r.ok && setStatus(r.value));
  }, []);
  if (!status) return null;
  const done = (r: Awaited<ReturnType<typeof call<'secrets.unlock'>>>) => {
    if (!r.ok) return setError(r.error.message);
    setStatus(r.value);
    setChoosing(false);
    setPassphrase('');
    setAgain('');
    setError(null);
  };
  const chooseFile = async () => {
    if (passphrase !== again) return setError('The two passphrases differ.');
    done(await call('secrets.useEncryptedFile', { passphrase }));
  };
  const unlock = async () => done(await call('secrets.unlock', { passphrase }));
  return (
    <section className="card stack" aria-label="Secrets">
      <h2>Secrets</h2>
      <div className="small" data-testid="secret-store">
        {status.kind === 'keychain'
          ? 'API keys, bot tokens and signing secrets are kept in the system keychain.'
          : `They are kept in an encrypted file (${status.file}), ${status.locked ? 'locked: unlock it to use them' : 'unlocked'}.`}
        {status.problem ? <span className="error-text"> {status.problem.message}</span> : null}
      </div>
      {status.kind === 'encrypted-file' && status.locked ? (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void unlock();
          }}
        >
          <label className="field">
            Passphrase
            <input
              type="password"
              autoComplete="current-password"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
            />
          </label>
          <button type="submit" className="btn primary">
            Unlock
          </button>
        </form>
      ) : null}
      {status.kind === 'keychain' && !choosing ? (
        <div className="row small">
          <span className="muted">No keychain on this machine (“could not store the secret”)?</span>
          <button type="button" className="btn small" onClick={() => setChoosing(true)}>
            Keep secrets in an encrypted file
          </button>
        </div>
      ) : null}
      {choosing ? (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            void chooseFile();
          }}
        >
          <div className="small muted">
            Sealed with scrypt and AES-256-GCM. The passphrase is asked at each start (a service can set
            ASSETS_SECRETS_PASSPHRASE); without it the secrets cannot be read, and it cannot be recovered.
          </div>
          <label className="field">
            Passphrase (8 characters or more)
            <input
              type="password"
              autoComplete="new-password"
              value={passphrase}
              onChange={(e) => setPassphrase(e.target.value)}
            />
          </label>
          <label className="field">
            The same again
            <input
              type="password"
              autoComplete="new-password"
              value={again}
              onChange={(e) => setAgain(e.target.value)}
            />
          </label>
          <div className="row">
            <button type="submit" className="btn primary">
              Use an encrypted file
            </button>
            <button type="button" className="btn" onClick={() => setChoosing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      {error ? (
        <div className="error-text small" role="alert">
          {error}
        </div>
      ) : null}
    </section>
  );
}
