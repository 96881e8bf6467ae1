import { useState } from 'react';
import { call } from '../../api/core-ref';
import { FormError, TextField } from '../../components/Field';
import { useKb } from './kb-store';

/** A bot of a real account: its address, the token of its KB API card, and its signing secret for leads. */
export function AddBotForm({ onDone }: { onDone(): void }) {
  const [name, setName] = useState('');
  const [baseUrl, setBaseUrl] = useState('');
  const [token, setToken] = useState('');
  const [remoteBotId, setRemoteBotId] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="card stack"
      aria-label="Add a bot"
      onSubmit={async (e) => {
        e.preventDefault();
        const id = Number(remoteBotId);
        const r = await call('kb.addBot', {
          name,
          baseUrl,
          token,
          ...(remoteBotId && Number.isInteger(id) && id > 0 ? { remoteBotId: id } : {}),
          ...(signingSecret ? { signingSecret } : {}),
        });
        if (!r.ok) return setError(r.error.message);
        await useKb.getState().load();
        await useKb.getState().selectBot(r.value.id);
        onDone();
      }}
    >
      <h2>Add a bot</h2>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <TextField label="Name" flex="1 1 10rem" name="bot-name" required value={name} onChange={setName} />
        <TextField
          label="Service address"
          flex="2 1 16rem"
          name="bot-base-url"
          required
          placeholder="https://bots.example.com"
          value={baseUrl}
          onChange={setBaseUrl}
        />
        <TextField
          label="Bot id"
          flex="0 1 7rem"
          name="bot-remote-id"
          inputMode="numeric"
          value={remoteBotId}
          onChange={setRemoteBotId}
        />
      </div>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <TextField
          label="API token (KB API card)"
          flex="1 1 14rem"
          name="bot-token"
          type="password"
          required
          autoComplete="off"
          value={token}
          onChange={setToken}
        />
        <TextField
          label="Webhook signing secret (for leads)"
          flex="1 1 14rem"
          name="bot-signing-secret"
          type="password"
          autoComplete="off"
          value={signingSecret}
          onChange={setSigningSecret}
        />
      </div>
      <span className="small muted">
        The token and the secret go to the system keychain, never to a file.
      </span>
      <FormError message={error} />
      <div className="row">
        <button type="submit" className="btn primary">
          Add bot
        </button>
        <button type="button" className="btn ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
