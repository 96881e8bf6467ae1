import { useState } from 'react';
import type { Settings } from '../../../src-shared/contract';
import {
  FILE_API_BUDGET_MAX_PER_MINUTE,
  FILE_API_REQUESTS_PER_MINUTE,
} from '../../../src-shared/domain/limits';
import { call } from '../../api/core-ref';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ViewHeader } from '../../components/ViewHeader';
import { orToast, useUi } from '../../stores/ui-store';
import { OfficeSettings } from '../office/OfficeSettings';
import { BandwidthSettings } from './BandwidthSettings';
import { ForesightSettings } from './ForesightSettings';
import { SecretStoreSettings } from './SecretStoreSettings';

export function SettingsView() {
  const settings = useUi((s) => s.settings);
  const session = useUi((s) => s.session);
  const [confirm, setConfirm] = useState<'reset' | 'disconnect' | null>(null);
  const save = async (patch: Partial<Settings>) => {
    const v = await orToast(call('settings.update', patch));
    if (v) useUi.setState({ settings: v });
  };
  if (!settings) return null;
  return (
    <>
      <ViewHeader title="Settings" />
      <div className="content stack" style={{ maxWidth: '44rem' }}>
        <section className="card stack">
          <h2>Uploads</h2>
          <label className="field">
            Uploads at once
            <input
              type="number"
              min={1}
              max={16}
              value={settings.concurrency}
              onChange={(e) => save({ concurrency: Number(e.target.value) })}
            />
          </label>
          <label className="field">
            Request budget (requests per minute; the service allows {FILE_API_REQUESTS_PER_MINUTE}, the app
            keeps a margin)
            <input
              type="number"
              min={1}
              max={FILE_API_BUDGET_MAX_PER_MINUTE}
              value={settings.requestsPerMinute}
              onChange={(e) => save({ requestsPerMinute: Number(e.target.value) })}
            />
          </label>
        </section>
        <ForesightSettings settings={settings} save={save} />
        <SecretStoreSettings />
        <section className="card stack">
          <h2>App</h2>
          <label className="row">
            <input
              type="checkbox"
              checked={settings.startAtLogin}
              onChange={(e) => save({ startAtLogin: e.target.checked })}
            />
            Start at login (desktop app)
          </label>
          <label className="row">
            <input
              type="checkbox"
              checked={settings.notifications}
              onChange={(e) => save({ notifications: e.target.checked })}
            />
            Desktop notifications
          </label>
          <label className="field">
            Theme
            <select
              value={settings.theme}
              onChange={(e) => save({ theme: e.target.value as Settings['theme'] })}
            >
              <option value="system">Follow the system</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
        </section>
        <BandwidthSettings settings={settings} save={save} />
        <OfficeSettings />
        <section className="card stack">
          <h2>Service</h2>
          <p className="muted small">
            {session?.kind === 'sandbox' ? 'The local sandbox' : 'Account'} at{' '}
            <span className="mono">{session?.baseUrl}</span>
            {session?.keySource === 'env' ? ' (key from ASSETS_API_KEY)' : ''}
          </p>
          <div className="row">
            {session?.kind === 'sandbox' ? (
              <button type="button" className="btn danger" onClick={() => setConfirm('reset')}>
                Reset the sandbox
              </button>
            ) : null}
            <button type="button" className="btn" onClick={() => setConfirm('disconnect')}>
              {session?.kind === 'sandbox' ? 'Leave the sandbox' : 'Disconnect this account'}
            </button>
          </div>
        </section>
      </div>
      <ConfirmDialog
        open={confirm === 'reset'}
        title="Reset the sandbox?"
        confirmLabel="Reset"
        danger
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          setConfirm(null);
          if (await orToast(call('settings.resetSandbox', {})))
            useUi.getState().toast('info', 'The sandbox starts afresh.');
        }}
      >
        Every file, wallet movement and usage day of the sandbox is deleted and a new demo account is made.
        Your folders and the files on this computer stay.
      </ConfirmDialog>
      <ConfirmDialog
        open={confirm === 'disconnect'}
        title="Disconnect?"
        confirmLabel="Disconnect"
        onCancel={() => setConfirm(null)}
        onConfirm={async () => {
          setConfirm(null);
          const s = await orToast(call('session.disconnect', {}));
          if (s) useUi.setState({ session: s });
        }}
      >
        Uploads stop and the key is removed from the keychain. Folders stay configured.
      </ConfirmDialog>
    </>
  );
}
