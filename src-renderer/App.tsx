import { useEffect } from 'react';
import { AccountBanner } from './components/AccountBanner';
import { Announcer } from './components/Announcer';
import { DropZone } from './components/DropZone';
import { installDialogFocusTrap } from './components/dialog-focus';
import { installDialogFocusReturn } from './components/focus-return';
import { Icon, Logo } from './components/Icon';
import { OfflineBanner } from './components/OfflineBanner';
import { Toasts } from './components/Toasts';
import { WordBadge } from './components/WordBadge';
import { formatRupees } from './lib/format';
import { useAccount } from './stores/account-store';
import { useAppStatus, useKnowledgeFacts, useLeadsFacts } from './stores/app-status';
import { useUi } from './stores/ui-store';
import { FirstRunView } from './views/first-run/FirstRunView';
import { viewsFor } from './views/registry';

const GROUP_LABEL = { files: 'Storage', bots: 'Bots', app: 'App' } as const;

export function App() {
  const session = useUi((s) => s.session);
  const settings = useUi((s) => s.settings);
  const view = useUi((s) => s.view);

  useEffect(() => installDialogFocusTrap(), []);
  useEffect(() => installDialogFocusReturn(), []);
  useEffect(() => {
    const dark =
      settings?.theme === 'dark' ||
      (settings?.theme !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [settings?.theme]);

  if (!session) return <div className="empty">Starting…</div>;
  if (session.kind === 'none') return <FirstRunView />;

  const current = viewsFor(session).find((v) => v.id === view) ?? viewsFor(session)[0]!;
  const View = current.component;
  return (
    <div className="shell">
      {/* The first Tab stop: past the sidebar's nine stops to the view (issue 34). A button that moves
          focus itself: a #fragment link would be a navigation to the Electron shell. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to the view
      </button>
      <Sidebar />
      <main id="main" className="main" aria-labelledby="view-title" tabIndex={-1}>
        <OfflineBanner />
        <AccountBanner />
        <View key={current.id} />
      </main>
      <DropZone />
      <Toasts />
      <Announcer />
    </div>
  );
}

export function Sidebar() {
  const view = useUi((s) => s.view);
  const go = useUi((s) => s.go);
  const session = useUi((s) => s.session);
  const link = useUi((s) => s.link);
  const account = useAccount((s) => s.account);
  // The app's one word (src-shared/domain/status-model.ts): files, holds, the knowledge outbox, the leads' link.
  useKnowledgeFacts();
  useLeadsFacts();
  const status = useAppStatus();
  const problems = status.attention;
  const groups = (['files', 'bots', 'app'] as const).filter((g) => viewsFor(session, g).length > 0);
  return (
    <nav className="sidebar" aria-label="Sections">
      <div className="brand">
        <Logo />
        <span>Assets Sync</span>
      </div>
      {groups.map((g) => (
        <div key={g} className="nav-group">
          <div className="nav-group-label small muted">{GROUP_LABEL[g]}</div>
          {viewsFor(session, g).map((v) => (
            <button
              key={v.id}
              type="button"
              className="nav-item"
              aria-current={v.id === view ? 'page' : undefined}
              onClick={() => go(v.id)}
            >
              <Icon name={v.icon} />
              {v.label}
              {v.id === 'folders' && problems > 0 ? <span className="badge danger">{problems}</span> : null}
            </button>
          ))}
        </div>
      ))}
      <div className="sidebar-foot stack" style={{ gap: '0.35rem' }}>
        <WordBadge
          tone={status.tone}
          word={status.word}
          detail={status.detail}
          testId="sync-state"
          data={{ state: status.state }}
        />
        {account?.value ? (
          <span className="num">
            Wallet <strong>{formatRupees(account.value.wallet.balance_paise)}</strong>
          </span>
        ) : null}
        <span className="muted" title={session?.baseUrl ?? ''}>
          {session?.kind === 'sandbox' ? 'Local sandbox' : (session?.accountName ?? 'Account')}
          {link !== 'open' ? ' · reconnecting…' : ''}
        </span>
      </div>
    </nav>
  );
}
