import { createContext, type ReactNode, useContext, useState } from 'react';
import type { Result } from '../../../src-shared/errors';
import { Icon, type IconName } from '../../components/Icon';

export type Said = { card: string; tone: 'ok' | 'error'; text: string };

interface Actions {
  /** The action running now (one at a time), or null. */
  busy: string | null;
  said: Said | null;
  /** Runs one action of a card; its outcome is said under that card. */
  act<T>(card: string, id: string, run: () => Promise<Result<T>>, done: (value: T) => string): Promise<void>;
  say(s: Said): void;
}

const SandboxActions = createContext<Actions | null>(null);

/** The panel's one action at a time and the sentence each leaves under its card. */
export function SandboxActionsProvider({ children }: { children: ReactNode }) {
  const [busy, setBusy] = useState<string | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const value: Actions = {
    busy,
    said,
    say: setSaid,
    async act(card, id, run, done) {
      setBusy(id);
      setSaid(null);
      const r = await run();
      setBusy(null);
      setSaid(
        r.ok ? { card, tone: 'ok', text: done(r.value) } : { card, tone: 'error', text: r.error.message },
      );
    },
  };
  return <SandboxActions.Provider value={value}>{children}</SandboxActions.Provider>;
}

export function useSandboxActions(): Actions {
  const a = useContext(SandboxActions);
  if (!a) throw new Error('useSandboxActions outside SandboxActionsProvider');
  return a;
}

/**
 * One card of the panel: a heading with its icon, what it does, the sentence saying what the real
 * service does instead, and the outcome of its last action (a status, or an alert when refused).
 */
export function SandboxCard({
  id,
  icon,
  title,
  real,
  children,
}: {
  id: string;
  icon: IconName;
  title: string;
  real: string;
  children: ReactNode;
}) {
  const { said } = useSandboxActions();
  return (
    <section className="card stack" aria-labelledby={`sandbox-${id}`}>
      <h2 id={`sandbox-${id}`}>
        <Icon name={icon} /> {title}
      </h2>
      {children}
      <p className="small muted">{real}</p>
      {said?.card === id ? (
        <p
          className={said.tone === 'error' ? 'error-text' : 'sandbox-said'}
          role={said.tone === 'error' ? 'alert' : 'status'}
        >
          {said.text}
        </p>
      ) : null}
    </section>
  );
}

/** A button that runs one action of a card, saying so while it runs; off while another runs. */
export function ActionButton<T>({
  card,
  id,
  label,
  running = 'Working…',
  tone,
  disabled,
  run,
  done,
}: {
  card: string;
  id: string;
  label: ReactNode;
  running?: string;
  tone?: 'danger' | 'ghost';
  disabled?: boolean;
  run: () => Promise<Result<T>>;
  done: (value: T) => string;
}) {
  const { busy, act } = useSandboxActions();
  return (
    <button
      type="button"
      className={`btn${tone ? ` ${tone}` : ''}`}
      disabled={busy !== null || disabled}
      aria-busy={busy === id || undefined}
      onClick={() => void act(card, id, run, done)}
    >
      {busy === id ? running : label}
    </button>
  );
}
