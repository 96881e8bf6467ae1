/**
 * The one status model (issue 31): from the engine's facts (each folder's tally and in-sync flag, the
 * holds in force, the knowledge outbox, the leads' link) it derives, once, what every surface says of a file, a folder
 * and the whole app: the word, the badge's tone, the counts by one set of categories, why pending
 * files wait, and what the person can do. The folder card, the sidebar, the queue, the Folders
 * header, the tray, the notifications and `assets-sync status` render this and compute nothing of
 * their own, so they cannot disagree. Pure: no clock of its own (the facts carry `now`), no I/O.
 */
import { noun, plural } from './words';

export type Tone = 'ok' | 'warn' | 'danger';
/** The app's state as the tray's icon and the sidebar's dot show it. */
export type AppState = 'idle' | 'syncing' | 'paused' | 'error' | 'offline';

/** What keeps files from being sent, in the order one wins over the next (the first is said). */
export const HOLD_KINDS = [
  'stopped',
  'key',
  'wallet',
  'user-paused',
  'folder-paused',
  'schedule',
  'offline',
  'rate-limited',
  'office-wait',
] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];

/** The holds in force for the whole engine (a paused folder is the folder's own fact). */
export interface Holds {
  /** 401 or the account closed: nothing more is sent until the person acts. */
  stopped: { code: string; message: string } | null;
  /** The account refuses uploads: a refused key (UNAUTHENTICATED, FORBIDDEN) or the wallet (402). */
  account: { code: string; message: string } | null;
  /** Pause all. */
  userPaused: boolean;
  /** The weekly schedule's pause window, until when (epoch ms) when known. */
  schedule: { until: number | null } | null;
  /** The service gives no answer; asked again at nextTryAt. */
  offline: { nextTryAt: number | null } | null;
  /** A 429's back-off: nothing is sent before `until`. */
  rateLimited: { until: number | null } | null;
  /** The office makes this desk wait for its share of the request budget. */
  officeWait: { until: number | null } | null;
}

export const NO_HOLDS: Holds = {
  stopped: null,
  account: null,
  userPaused: false,
  schedule: null,
  offline: null,
  rateLimited: null,
  officeWait: null,
};

/** A folder's files as the engine counts them (state/transitions.ts `tallyFolder`). */
export interface FolderTallyFacts {
  live: number;
  /** Every file with work ahead: the ones being sent, waiting their turn, and waiting for a retry. */
  pending: number;
  /** FAILED for good: it needs the person. */
  failed: number;
  skipped: number;
  removedByYou: number;
  /** Of `pending`: FAILED rows waiting for their automatic retry. */
  retrying?: number;
  /** Of `pending`: rows a worker holds now (hashing, uploading). */
  active?: number;
}

export interface FolderFacts {
  id: number;
  path: string;
  paused: boolean;
  /** A watcher problem in words (a vanished folder), else null. */
  problem: string | null;
  /** The folder's runner says nothing is left to do (no batch, no scan, no pending row). */
  inSync: boolean;
  tally: FolderTallyFacts;
  /** The earliest automatic retry among its files (epoch ms), when known. */
  nextRetryAt?: number | null;
}

/** One knowledge bot's outbox and its sync (core/kb). */
export interface KnowledgeFacts {
  /** Edits stored here and not yet accepted by the service. */
  pending: number;
  conflict: number;
  error: number;
  state: 'idle' | 'syncing' | 'offline' | 'error';
  /** The service answered 429: the next round waits until then. */
  rateLimitedUntil?: number | null;
  nextAttemptAt?: number | null;
}

/** An error as the core sends it: a code for machines, a sentence for people. */
export interface StatusError {
  code: string;
  message: string;
}

/** Where this desk's leads come from (core/leads) and whether that link works. */
export interface LeadsFacts {
  /** `relay` when one is configured, else this computer's `receiver`. */
  source: 'relay' | 'receiver';
  /** This computer's receiver; null when unknown (no app runs here: the CLI). */
  receiver: { running: boolean; error: StatusError | null } | null;
  /** The relay's side, with a relay as the source. */
  relay: {
    /** The last pull answered; null when unknown (no app runs here: the CLI). */
    connected: boolean | null;
    error: StatusError | null;
    /** Deliveries the relay holds that this desk has not read yet. */
    waiting: number;
    /** Deliveries this desk refused (a signature that does not match, a bot not set up here). */
    rejected: number;
  } | null;
}

export interface StatusFacts {
  now: number;
  holds: Holds;
  folders: FolderFacts[];
  knowledge?: KnowledgeFacts[];
  /** Null or absent: nothing known of the leads (they say nothing). */
  leads?: LeadsFacts | null;
  /** Rent is unpaid (arrears above zero): said when nothing else is. */
  owes?: boolean;
  /** A time of day for "until 22:00" (each surface passes the same IST clock). */
  clock?: (epochMs: number) => string;
}

/** The one set of categories every surface counts with. */
export interface StatusCounts {
  live: number;
  pending: number;
  failed: number;
  skipped: number;
  removedByYou: number;
}

/** Why the pending files wait: being sent, waiting their turn, waiting for a retry, or held. */
export interface PendingBy {
  sending: number;
  waiting: number;
  retrying: number;
  /** Held by `hold` (every pending file is, while a hold is in force). */
  held: number;
  hold: HoldKind | null;
}

export type FolderAction = 'pause' | 'resume' | 'resume-all';

export interface FolderStatusModel {
  id: number;
  state: AppState;
  /** The badge's word: "In sync", "Syncing", "Paused by the schedule", "1 needs attention"... */
  word: string;
  tone: Tone;
  /** "1 needs attention" (the files that failed for good), else null; the word itself when nothing else is to say. */
  attention: string | null;
  counts: StatusCounts;
  pendingBy: PendingBy;
  /** "3 waiting: paused by the schedule", "1 waiting to retry", or null when nothing is pending. */
  pendingText: string | null;
  action: FolderAction;
  /** Failed files may be retried by the person. */
  canRetry: boolean;
}

/** What the app's word speaks of: a hold, or the first thing in the order that has something to say. */
export type AppCause =
  | HoldKind
  | 'problem'
  | 'failed'
  | 'knowledge'
  | 'leads'
  | 'retrying'
  | 'syncing'
  | 'owes'
  | 'in-sync';

export interface AppStatusModel {
  /** What the word speaks of (a notification is sent when this changes to one worth it). */
  cause: AppCause;
  state: AppState;
  /** The one word: the sidebar's badge and the tray's tooltip. */
  word: string;
  tone: Tone;
  /** What follows the word in the tray's tooltip: "3 files waiting", the hold's message... */
  detail: string | null;
  counts: StatusCounts;
  pendingBy: PendingBy;
  /** "3 in progress · 2 waiting (1 to retry)", or "5 waiting: offline": the queue's header. */
  queueText: string;
  /** Files that failed for good (the sidebar's Folders badge). */
  attention: number;
  /** The knowledge outbox: "2 knowledge edits waiting: offline", or null when all is sent. */
  knowledge: string | null;
  /** The leads' link: the Leads view's header says it; the app's word when it `speaksForApp`. */
  leads: LeadsStatusModel | null;
  folders: FolderStatusModel[];
  /** Time left may be said: files wait and may go now (no hold). */
  mayEstimate: boolean;
  toggle: 'pause' | 'resume';
}

/** Holds that end by themselves at a known time: the estimate of time left counts their wait. */
export const TIMED_HOLDS: readonly HoldKind[] = ['schedule', 'rate-limited', 'office-wait'];

/** The hold's word on a badge. */
export const HOLD_WORD: Record<HoldKind, string> = {
  stopped: 'Stopped',
  key: 'Key refused',
  wallet: 'Waiting for the wallet',
  'user-paused': 'All paused',
  'folder-paused': 'Paused',
  schedule: 'Paused by the schedule',
  offline: 'Offline',
  'rate-limited': 'Slowed by the service',
  'office-wait': 'Waiting for the office',
};

/** The hold as the reason after "3 waiting:". */
export const HOLD_REASON: Record<HoldKind, string> = {
  stopped: 'syncing stopped',
  key: 'the key was refused',
  wallet: 'the wallet',
  'user-paused': 'all paused',
  'folder-paused': 'folder paused',
  schedule: 'paused by the schedule',
  offline: 'offline',
  'rate-limited': 'the service asked for fewer requests',
  'office-wait': "the office's turn",
};

const HOLD_STATE: Record<HoldKind, AppState> = {
  stopped: 'error',
  key: 'paused',
  wallet: 'paused',
  'user-paused': 'paused',
  'folder-paused': 'paused',
  schedule: 'paused',
  offline: 'offline',
  'rate-limited': 'syncing',
  'office-wait': 'syncing',
};

/** The engine-wide hold in force, the first in HOLD_KINDS' order (a paused folder is not one). */
export function engineHold(h: Holds): HoldKind | null {
  if (h.stopped) return 'stopped';
  // The account's refusal: a refused key, else money (402 and its kin: the wallet, arrears).
  if (h.account) return isKeyCode(h.account.code) ? 'key' : 'wallet';
  if (h.userPaused) return 'user-paused';
  if (h.schedule) return 'schedule';
  if (h.offline) return 'offline';
  if (h.rateLimited) return 'rate-limited';
  if (h.officeWait) return 'office-wait';
  return null;
}

/** A stop for a refused key says so; any other stop (the account closed) is "Stopped". */
const stoppedWord = (h: Holds) =>
  h.stopped && isKeyCode(h.stopped.code) ? HOLD_WORD.key : HOLD_WORD.stopped;

const isKeyCode = (code: string) =>
  code === 'UNAUTHENTICATED' || code === 'FORBIDDEN' || code === 'UNAUTHORIZED';

/** The hold that keeps this folder's files, if any: the engine's, or the folder's own pause. */
function folderHold(f: FolderFacts, h: Holds): HoldKind | null {
  const e = engineHold(h);
  if (e === 'stopped' || e === 'key' || e === 'wallet' || e === 'user-paused') return e;
  if (f.paused) return 'folder-paused';
  return e;
}

function holdUntil(kind: HoldKind, h: Holds, clock?: (ms: number) => string): string {
  if (!clock) return '';
  const until =
    kind === 'schedule'
      ? h.schedule?.until
      : kind === 'rate-limited'
        ? h.rateLimited?.until
        : kind === 'office-wait'
          ? h.officeWait?.until
          : null;
  return until ? ` until ${clock(until)}` : '';
}

const needAttention = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'needs' : 'need'} attention`;

function countsOf(t: FolderTallyFacts): StatusCounts {
  return {
    live: t.live,
    pending: t.pending,
    failed: t.failed,
    skipped: t.skipped,
    removedByYou: t.removedByYou,
  };
}

function pendingOf(t: FolderTallyFacts, hold: HoldKind | null): PendingBy {
  const retrying = Math.min(t.retrying ?? 0, t.pending);
  const sending = Math.min(t.active ?? 0, t.pending - retrying);
  if (hold && t.pending > 0) return { sending: 0, waiting: 0, retrying: 0, held: t.pending, hold };
  return { sending, waiting: t.pending - retrying - sending, retrying, held: 0, hold: null };
}

/** "3 waiting: offline", "2 being sent · 1 waiting to retry": why the pending files wait. */
export function pendingSentence(
  p: PendingBy,
  h: Holds = NO_HOLDS,
  clock?: (ms: number) => string,
): string | null {
  if (p.hold && p.held > 0)
    return `${p.held.toLocaleString('en')} waiting: ${HOLD_REASON[p.hold]}${holdUntil(p.hold, h, clock)}`;
  const parts: string[] = [];
  if (p.sending > 0) parts.push(`${p.sending.toLocaleString('en')} being sent`);
  if (p.waiting > 0)
    parts.push(`${p.waiting.toLocaleString('en')} waiting ${p.waiting === 1 ? 'its' : 'their'} turn`);
  if (p.retrying > 0) parts.push(`${p.retrying.toLocaleString('en')} waiting to retry`);
  return parts.length ? parts.join(' · ') : null;
}

/** One folder: its badge, counts, why its files wait, what can be done. */
export function folderStatus(f: FolderFacts, facts: Pick<StatusFacts, 'holds' | 'clock'>): FolderStatusModel {
  const h = facts.holds;
  const t = f.tally;
  const hold = folderHold(f, h);
  const pendingBy = pendingOf(t, hold);
  const counts = countsOf(t);
  const action: FolderAction = h.userPaused ? 'resume-all' : f.paused ? 'resume' : 'pause';
  const base = { id: f.id, counts, pendingBy, action, canRetry: t.failed > 0 };
  const pendingText = pendingSentence(pendingBy, h, facts.clock);
  const attention = t.failed > 0 ? needAttention(t.failed) : null;
  const say = (state: AppState, word: string, tone: Tone): FolderStatusModel => ({
    ...base,
    state,
    word,
    tone,
    attention,
    pendingText,
  });
  // A pause or a stop is said whether or not files wait: nothing new will go.
  if (hold === 'stopped') return say('error', stoppedWord(h), 'danger');
  if (hold === 'user-paused' || hold === 'folder-paused') return say('paused', HOLD_WORD[hold], 'warn');
  if (f.problem) return say('error', 'Needs attention', 'danger');
  if (t.pending > 0 && hold)
    return say(HOLD_STATE[hold], HOLD_WORD[hold], hold === 'key' ? 'danger' : 'warn');
  if (t.pending > 0) {
    if (pendingBy.retrying === t.pending) return say('syncing', 'Waiting to retry', 'warn');
    return say('syncing', 'Syncing', 'ok');
  }
  // Nothing pending yet the runner is not done: a change seen and not yet read (a drop, a batch).
  if (!f.inSync && t.failed === 0) return say('syncing', 'Checking for changes', 'ok');
  if (t.failed > 0) return say('error', needAttention(t.failed), 'danger');
  return say('idle', 'In sync', 'ok');
}

function sum(list: StatusCounts[]): StatusCounts {
  const c: StatusCounts = { live: 0, pending: 0, failed: 0, skipped: 0, removedByYou: 0 };
  for (const x of list) {
    c.live += x.live;
    c.pending += x.pending;
    c.failed += x.failed;
    c.skipped += x.skipped;
    c.removedByYou += x.removedByYou;
  }
  return c;
}

/** The knowledge outbox in one phrase: "2 knowledge edits waiting: offline". */
export function knowledgeSentence(kb: readonly KnowledgeFacts[], h: Holds): string | null {
  const pending = kb.reduce((n, b) => n + b.pending, 0);
  const stuck = kb.reduce((n, b) => n + b.conflict + b.error, 0);
  if (stuck > 0) return `${plural(stuck, 'knowledge edit')} ${stuck === 1 ? 'needs' : 'need'} attention`;
  if (pending === 0) return null;
  const offline = h.offline !== null || kb.some((b) => b.state === 'offline');
  const limited = kb.some((b) => b.rateLimitedUntil != null);
  const why = offline
    ? 'offline'
    : limited
      ? HOLD_REASON['rate-limited']
      : kb.some((b) => b.state === 'error')
        ? 'the last round failed'
        : null;
  return `${plural(pending, 'knowledge edit')} waiting${why ? `: ${why}` : ''}`;
}

/**
 * One bot's sync in words, for the Knowledge header: a 429 is said as such, never "Syncing…" (the
 * round that waits for the budget is a wait, not work).
 */
export function knowledgeDoing(
  b: KnowledgeFacts,
  h: Holds,
): 'offline' | 'rate-limited' | 'syncing' | 'error' | 'idle' {
  if (h.offline || b.state === 'offline') return 'offline';
  if (b.rateLimitedUntil != null) return 'rate-limited';
  return b.state;
}

/** What the leads' link is doing, first match wins (`leadsStatus`). */
export const LEADS_KINDS = [
  'receiver-down',
  'relay-refused',
  'relay-unreachable',
  'relay-waiting',
  'relay-connecting',
  'relay',
  'receiver',
] as const;
export type LeadsKind = (typeof LEADS_KINDS)[number];

export interface LeadsStatusModel {
  kind: LeadsKind;
  /** The Leads view's badge, and the app's word when `speaksForApp`: "Lead relay unreachable". */
  word: string;
  tone: Tone;
  state: AppState;
  /** What follows the word (the tray's tooltip, the badge's title): the error in words... */
  detail: string | null;
  /**
   * Leads may be lost or wait unread: the app's word says it when nothing before it in the order does
   * (files, then knowledge, then leads). A link that works, or is only connecting, says nothing there.
   */
  speaksForApp: boolean;
  /** The link in one word, the Leads view's "State": "Connected", "Unreachable", "Listening"... */
  link: string;
  /** "2 deliveries refused": deliveries that did not pass the signature check; said in the Leads view. */
  refused: string | null;
}

const LEADS_SPEAK_FOR_APP: ReadonlySet<LeadsKind> = new Set([
  'receiver-down',
  'relay-refused',
  'relay-unreachable',
  'relay-waiting',
]);

/** The leads' side in words: what the Leads view's header and, when leads may be lost, the app's word say. */
export function leadsStatus(l: LeadsFacts): LeadsStatusModel {
  const refused =
    l.relay && l.relay.rejected > 0 ? `${plural(l.relay.rejected, 'delivery', 'deliveries')} refused` : null;
  const say = (
    kind: LeadsKind,
    word: string,
    tone: Tone,
    state: AppState,
    link: string,
    detail: string | null = null,
  ): LeadsStatusModel => ({
    kind,
    word,
    tone,
    state,
    detail,
    speaksForApp: LEADS_SPEAK_FOR_APP.has(kind),
    link,
    refused,
  });
  if (l.source === 'receiver' || !l.relay) {
    const r = l.receiver;
    // The service tries three times in about six minutes: a receiver that cannot listen loses leads.
    if (r && !r.running && r.error)
      return say(
        'receiver-down',
        'Lead receiver stopped',
        'danger',
        'error',
        'Not listening',
        r.error.message,
      );
    // A port taken and another one used (LEADS-PORT-CHANGED) is a warning the Leads view shows; it listens.
    return say(
      'receiver',
      'Receiving on this computer',
      'ok',
      'idle',
      r?.running === false ? 'Not listening' : 'Listening',
      r?.error?.message ?? null,
    );
  }
  const x = l.relay;
  const waiting = x.waiting > 0 ? `${plural(x.waiting, 'lead')} waiting at the relay` : null;
  // No answer, or a 5xx/429 (RELAY-UNAVAILABLE): it passes by itself; the desk asks again.
  if (x.error && (x.error.code === 'RELAY-UNREACHABLE' || x.error.code === 'RELAY-UNAVAILABLE'))
    return say(
      'relay-unreachable',
      'Lead relay unreachable',
      'warn',
      'offline',
      'Unreachable',
      `${x.error.message} Leads wait at the relay; this desk tries again shortly.`,
    );
  // A token refused, an address that is not a relay: only the person can mend it, and leads pile up there.
  if (x.error)
    return say('relay-refused', 'Lead relay needs attention', 'danger', 'error', 'Refused', x.error.message);
  if (x.connected === false)
    return say('relay-connecting', 'Connecting to the lead relay', 'ok', 'syncing', 'Connecting');
  if (waiting)
    return say('relay-waiting', waiting, 'ok', 'syncing', x.connected ? 'Connected' : 'Last known', null);
  return say('relay', 'Receiving through the relay', 'ok', 'idle', x.connected ? 'Connected' : 'Last known');
}

/** The whole app: every folder, the knowledge outbox, and the one word the sidebar and the tray say. */
export function appStatus(facts: StatusFacts): AppStatusModel {
  const h = facts.holds;
  const folders = facts.folders.map((f) => folderStatus(f, facts));
  const counts = sum(folders.map((f) => f.counts));
  const pendingBy: PendingBy = { sending: 0, waiting: 0, retrying: 0, held: 0, hold: null };
  for (const f of folders) {
    pendingBy.sending += f.pendingBy.sending;
    pendingBy.waiting += f.pendingBy.waiting;
    pendingBy.retrying += f.pendingBy.retrying;
    pendingBy.held += f.pendingBy.held;
    pendingBy.hold ??= f.pendingBy.hold;
  }
  const kb = facts.knowledge ?? [];
  const knowledge = knowledgeSentence(kb, h);
  const leads = facts.leads ? leadsStatus(facts.leads) : null;
  const leadsSay = leads?.speaksForApp ? leads : null;
  const kbStuck = kb.some((b) => b.conflict + b.error > 0);
  const hold = engineHold(h);
  const allPaused = folders.length > 0 && facts.folders.every((f) => f.paused);
  const toggle = h.userPaused ? 'resume' : 'pause';
  const files = (n: number) => plural(n, 'file');
  const queueText = pendingBy.held
    ? `${pendingBy.held.toLocaleString('en')} waiting (${HOLD_REASON[pendingBy.hold ?? 'offline']})`
    : `${pendingBy.sending.toLocaleString('en')} in progress · ${(pendingBy.waiting + pendingBy.retrying).toLocaleString('en')} waiting${pendingBy.retrying ? ` (${pendingBy.retrying.toLocaleString('en')} to retry)` : ''}`;
  const base = {
    counts,
    pendingBy,
    queueText,
    attention: counts.failed,
    knowledge,
    leads,
    folders,
    toggle,
    // Under a hold with an end the estimate counts the wait (time-left.ts: the schedule's windows, the
    // budget's Retry-After); under any other nothing says when files go, and no time left is said.
    mayEstimate:
      hold === null
        ? pendingBy.sending + pendingBy.waiting > 0
        : TIMED_HOLDS.includes(hold) && pendingBy.held > 0,
  } as const;
  const say = (
    cause: AppCause,
    state: AppState,
    word: string,
    tone: Tone,
    detail: string | null,
  ): AppStatusModel => ({
    ...base,
    cause,
    state,
    word,
    tone,
    detail,
  });
  const until = (k: HoldKind) => holdUntil(k, h, facts.clock);
  const somethingWaits = counts.pending > 0 || kb.some((b) => b.pending > 0);
  if (hold === 'stopped')
    return say('stopped', 'error', stoppedWord(h), 'danger', h.stopped?.message ?? null);
  const problem = facts.folders.find((f) => f.problem)?.problem;
  if (problem) return say('problem', 'error', 'Needs attention', 'danger', problem);
  if (hold === 'offline')
    return say(
      'offline',
      'offline',
      'Offline',
      'warn',
      somethingWaits || leadsSay ? waitingDetail(counts.pending, knowledge, leadsSay?.word ?? null) : null,
    );
  if (hold === 'key' || hold === 'wallet')
    return say(
      hold,
      'paused',
      HOLD_WORD[hold],
      hold === 'key' ? 'danger' : 'warn',
      h.account?.message ?? null,
    );
  if (hold === 'user-paused')
    return say(hold, 'paused', 'Paused', 'warn', 'You paused syncing; resume to continue.');
  // The word stays short (the sidebar's badge); when the hold ends is the detail's.
  if (hold === 'schedule' && counts.pending > 0)
    return say(
      'schedule',
      'paused',
      HOLD_WORD.schedule,
      'warn',
      `${waitingDetail(counts.pending, null)}${until('schedule')}`,
    );
  if (allPaused) return say('folder-paused', 'paused', 'Paused', 'warn', 'Every folder is paused.');
  if (counts.failed > 0)
    return say('failed', 'error', needAttention(counts.failed), 'danger', `${files(counts.failed)} failed`);
  if (kbStuck && knowledge) return say('knowledge', 'error', knowledge, 'danger', null);
  // Leads being lost (a receiver that cannot listen, a relay that refuses this desk) after the files' and
  // the knowledge's attention; a relay merely unreachable, or leads waiting there, after all the rest.
  if (leadsSay?.tone === 'danger')
    return say('leads', leadsSay.state, leadsSay.word, 'danger', leadsSay.detail);
  if (counts.pending > 0 && hold)
    return say(
      hold,
      'syncing',
      HOLD_WORD[hold],
      'warn',
      `${waitingDetail(counts.pending, null)}${until(hold)}`,
    );
  if (counts.pending > 0 && pendingBy.retrying === counts.pending)
    return say(
      'retrying',
      'syncing',
      'Waiting to retry',
      'warn',
      `${files(pendingBy.retrying)} waiting to retry`,
    );
  if (counts.pending > 0) return say('syncing', 'syncing', 'Syncing', 'ok', `${files(counts.pending)} to go`);
  if (folders.some((f) => f.word === 'Checking for changes'))
    return say('syncing', 'syncing', 'Syncing', 'ok', null);
  if (knowledge) return say('knowledge', 'syncing', knowledge, 'warn', null);
  if (leadsSay) return say('leads', leadsSay.state, leadsSay.word, leadsSay.tone, leadsSay.detail);
  if (facts.owes) return say('owes', 'idle', 'Rent unpaid', 'warn', null);
  return say('in-sync', 'idle', 'In sync', 'ok', null);
}

function waitingDetail(files: number, knowledge: string | null, leads: string | null = null): string {
  const parts = [files > 0 ? `${plural(files, 'file')} waiting` : null, knowledge, leads].filter(Boolean);
  return parts.join(' · ');
}

/** "Live 16 · Skipped 3 · Removed by you 1": the non-zero categories, in the card's order. */
export function countsLine(c: StatusCounts): string {
  const parts = COUNT_LABELS.filter(([k]) => c[k] > 0).map(
    ([k, label]) => `${label} ${c[k].toLocaleString('en')}`,
  );
  return parts.length ? parts.join(' · ') : 'no files';
}

/** The categories' words, in the order every surface lists them. */
export const COUNT_LABELS: readonly (readonly [keyof StatusCounts, string])[] = [
  ['live', 'Live'],
  ['pending', 'Pending'],
  ['failed', 'Failed'],
  ['skipped', 'Skipped'],
  ['removedByYou', 'Removed by you'],
];

/** One file's row, as the queue, the "Not uploaded" list and the CLI name it. */
export interface FileFacts {
  state: string;
  reasonCode: string | null;
  nextRetryAt: number | null;
}

export type FileCategory = 'live' | 'pending' | 'failed' | 'skipped' | 'removedByYou' | 'deleted';

const FILE_WORD: Record<string, string> = {
  NEW: 'Waiting',
  HASHING: 'Checking',
  QUEUED: 'Queued',
  UPLOADING: 'Uploading',
  PAUSED: 'Paused',
  DELETING: 'Deleting',
  LIVE: 'Live',
  DELETED: 'Deleted',
};

export const REMOVED_BY_YOU_CODE = 'REMOVED-BY-YOU';

/** A file's word, tone and category; a waiting file under a hold says the hold ("Waiting: offline"). */
export function fileStatus(
  f: FileFacts,
  hold: HoldKind | null = null,
): { word: string; tone: Tone; category: FileCategory } {
  if (f.state === 'LIVE') return { word: 'Live', tone: 'ok', category: 'live' };
  if (f.state === 'DELETED') return { word: 'Deleted', tone: 'ok', category: 'deleted' };
  if (f.state === 'SKIPPED')
    return f.reasonCode === REMOVED_BY_YOU_CODE
      ? { word: 'Removed by you', tone: 'ok', category: 'removedByYou' }
      : { word: 'Skipped', tone: 'ok', category: 'skipped' };
  if (f.state === 'FAILED' && f.nextRetryAt === null)
    return { word: 'Failed', tone: 'danger', category: 'failed' };
  // Under a hold nothing is sent: a row left UPLOADING waits too (offline, its upload fails and goes again).
  if (hold) return { word: `Waiting: ${HOLD_REASON[hold]}`, tone: 'warn', category: 'pending' };
  if (f.state === 'FAILED') return { word: 'Will retry', tone: 'warn', category: 'pending' };
  return { word: FILE_WORD[f.state] ?? f.state, tone: 'ok', category: 'pending' };
}

/** "1 file", for a count in the folder's words ("3 files waiting"). */
export const filesWord = (n: number) => noun(n, 'file');
