import { useState } from 'react';
import type { KbBotView } from '../../../src-shared/contract/kb';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormError, TextField } from '../../components/Field';
import { plural } from '../../lib/plural';
import { useUi } from '../../stores/ui-store';
import { useKb } from './kb-store';

/** What removing the bot loses, in the words of the confirmation. */
export function removalWarning(bot: KbBotView): string {
  const { unsent, total } = bot.counts;
  return unsent > 0
    ? `${plural(unsent, 'edit')} not yet sent will be lost.`
    : `Every edit has reached the bot${total > 0 ? '' : ', and it has no entries here'}.`;
}

/**
 * Rename, move, give a new token or signing secret, or remove a bot. Secrets typed here go to the
 * system keychain through the core; an empty field keeps the stored one. The sandbox's demo bot
 * gets its address and secrets from the sandbox, so only its name can change.
 */
export function BotSettings({ bot, onDone }: { bot: KbBotView; onDone(): void }) {
  const [name, setName] = useState(bot.name);
  const [baseUrl, setBaseUrl] = useState(bot.baseUrl);
  const [remoteBotId, setRemoteBotId] = useState(bot.remoteBotId?.toString() ?? '');
  const [token, setToken] = useState('');
  const [signingSecret, setSigningSecret] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);

  async function save() {
    const id = remoteBotId.trim() === '' ? null : Number(remoteBotId);
    if (id !== null && !(Number.isInteger(id) && id > 0))
      return setError('The bot id is a whole number from the bot’s editor, or empty.');
    const r = await call('kb.updateBot', {
      botId: bot.id,
      ...(name.trim() !== bot.name ? { name } : {}),
      ...(!bot.isSandbox && baseUrl.trim() !== bot.baseUrl ? { baseUrl } : {}),
      ...(!bot.isSandbox && id !== bot.remoteBotId ? { remoteBotId: id } : {}),
      ...(token.trim() ? { token } : {}),
      ...(signingSecret.trim() ? { signingSecret } : {}),
    });
    if (!r.ok) return setError(r.error.message);
    await useKb.getState().load();
    useUi.getState().toast('info', `“${r.value.name}” saved.`);
    onDone();
  }

  async function remove() {
    setConfirming(false);
    const r = await call('kb.removeBot', { botId: bot.id });
    if (!r.ok) return setError(r.error.message);
    useUi.getState().toast('info', `“${bot.name}” was removed from this app.`);
    await useKb.getState().load();
    onDone();
  }

  return (
    <form
      className="card stack"
      aria-label="Bot settings"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <h2>Bot settings</h2>
      <div className="row" style={{ alignItems: 'flex-end' }}>
        <TextField
          label="Name"
          flex="1 1 10rem"
          name="edit-bot-name"
          required
          value={name}
          onChange={setName}
        />
        {bot.isSandbox ? null : (
          <>
            <TextField
              label="Service address"
              flex="2 1 16rem"
              name="edit-bot-base-url"
              required
              value={baseUrl}
              onChange={setBaseUrl}
            />
            <TextField
              label="Bot id"
              flex="0 1 7rem"
              name="edit-bot-remote-id"
              inputMode="numeric"
              value={remoteBotId}
              onChange={setRemoteBotId}
            />
          </>
        )}
      </div>
      {bot.isSandbox ? (
        <span className="small muted">
          The sandbox sets this bot’s address, token and signing secret by itself.
        </span>
      ) : (
        <>
          <div className="row" style={{ alignItems: 'flex-end' }}>
            <TextField
              label={bot.hasToken ? 'New API token (empty keeps the stored one)' : 'API token (KB API card)'}
              flex="1 1 14rem"
              name="edit-bot-token"
              type="password"
              autoComplete="off"
              value={token}
              onChange={setToken}
            />
            <TextField
              label={
                bot.hasSigningSecret
                  ? 'New signing secret (empty keeps the stored one)'
                  : 'Webhook signing secret (for leads)'
              }
              flex="1 1 14rem"
              name="edit-bot-signing-secret"
              type="password"
              autoComplete="off"
              value={signingSecret}
              onChange={setSigningSecret}
            />
          </div>
          <span className="small muted">
            Tokens and secrets go to the system keychain, never to a file, and are never shown again.
          </span>
        </>
      )}
      <FormError message={error} />
      <div className="row">
        <button type="submit" className="btn primary">
          Save
        </button>
        <button type="button" className="btn ghost" onClick={onDone}>
          Cancel
        </button>
        <span className="spacer" />
        <button type="button" className="btn danger" onClick={() => setConfirming(true)}>
          Remove bot…
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        title={`Remove “${bot.name}”?`}
        confirmLabel="Remove bot"
        danger
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      >
        <p
          data-testid="remove-bot-pending"
          className={bot.counts.unsent > 0 ? 'kb-remove-warning' : undefined}
        >
          <strong>{removalWarning(bot)}</strong>
        </p>
        <p>
          This app forgets the bot: its {plural(bot.counts.total, 'entry', 'entries')} here, its token and its
          signing secret. The entries already on the service stay there.{' '}
          {bot.isSandbox
            ? 'Its demo leads go with it; the sandbox makes a new demo bot the next time it starts.'
            : 'Its leads stay in the inbox.'}
        </p>
      </ConfirmDialog>
    </form>
  );
}
