import {
  type LeadDetail,
  type LeadView,
  type ReceiverView,
  type RejectedDelivery,
  type RelayView,
  wantsAPerson,
} from '../../../src-shared/contract/leads';
import { type AppError, appError, err, ok, type Result } from '../../../src-shared/errors';
import type { Db } from '../../shared-node/sqlite';
import { statements } from '../../shared-node/statements';
import type { SecretStore } from '../secrets/keychain';
import { leadsToCsv } from './csv';
import { createLeadsStore, type StoredLead } from './leads-store';
import { DEFAULT_RECEIVER_PATH, type RunningReceiver, startLeadReceiver } from './receiver';
import { fetchFeed } from './relay/relay-http';
import { createRelayInbox } from './relay/relay-inbox';
import { normalizeRelayUrl, readPrinted, relaySettings } from './relay/relay-settings';
import { createRelaySync } from './relay/relay-sync';
import { createSigningKeys } from './signing-keys';

export interface ReceiverConfig {
  host: string;
  port: number;
  path: string;
}

export interface LeadsServiceOptions {
  db: Db;
  secrets: SecretStore;
  /** Local ids of the configured bots, whose signing secrets the receiver accepts. */
  botIds: () => readonly number[];
  onLead: (lead: LeadView) => void;
  /** More than a few leads came in one pull (a catch-up): said once instead of `onLead` each. */
  onLeadsArrived?: (count: number) => void;
  /** A lead's handled state changed on another desk (through the relay). */
  onChanged?: (lead: LeadView) => void;
  onReceiver?: (view: ReceiverView) => void;
  onRelay?: (view: RelayView) => void;
  /** ASSETS_RELAY_URL, ASSETS_RELAY_TOKEN, ASSETS_SIGNING_SECRET (default: none read). */
  env?: NodeJS.ProcessEnv;
  /** How long the relay may hold a pull open, in seconds (tests shorten it). */
  relayWaitS?: number;
  log?: (line: string) => void;
  /** This desk's wall clock (tests set one that runs behind). */
  now?: () => number;
  /** Overrides the stored address (tests, `--leads-port`). */
  receiver?: Partial<ReceiverConfig>;
}

/** 127.0.0.0/8, ::1 and localhost: a receiver there is reached only from this machine (a tunnel). */
export const isLoopbackHost = (host: string) =>
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '[::1]' || host === 'localhost';

/** Past this many leads in one pull, they are announced as one arrival. */
const CATCH_UP_AT = 3;

const DEFAULTS: ReceiverConfig = { host: '127.0.0.1', port: 0, path: DEFAULT_RECEIVER_PATH };

export const toLeadView = (l: StoredLead): LeadView => ({
  id: l.id,
  botId: l.botId,
  botName: l.botName,
  businessName: l.businessName,
  conversationId: l.conversationId,
  event: l.event,
  name: l.name,
  email: l.email,
  phone: l.phone,
  note: l.note,
  askedForAPerson: wantsAPerson(l),
  visitorRef: l.visitorRef,
  startedAt: l.startedAt,
  receivedAt: l.receivedAt,
  handledAt: l.handledAt,
  handledBy: l.handledBy,
});

/** The leads side of the core: the webhook receiver, the inbox in SQLite, the signing secrets. */
export function createLeadsService(o: LeadsServiceOptions) {
  const prep = statements(o.db);
  const store = createLeadsStore(o.db);
  const signing = createSigningKeys(o.secrets, o.botIds, o.env ?? {});
  const log = o.log ?? (() => {});
  const relayConfig = relaySettings(o.db, o.secrets, o.env ?? {});
  const inbox = createRelayInbox(o.db, store, () => signing.all());
  const announce = (added: StoredLead[]) => {
    if (added.length > CATCH_UP_AT && o.onLeadsArrived) o.onLeadsArrived(added.length);
    else for (const l of added) o.onLead(toLeadView(l));
  };
  const relay = createRelaySync({
    settings: relayConfig,
    inbox,
    onLeads: (added, changed) => {
      announce(added);
      for (const l of changed) o.onChanged?.(toLeadView(l));
    },
    onState: () => o.onRelay?.(relayView()),
    log,
    ...(o.relayWaitS !== undefined ? { waitS: o.relayWaitS } : {}),
  });
  /** Where the sandbox's demo bot posts (the knowledge section points it), null with no sandbox bot. */
  let sandboxBot: RelayView['sandboxBot'] = null;
  const sourceListeners = new Set<() => void | Promise<void>>();
  const relayView = (): RelayView => ({ ...relay.view(), sandboxBot });
  // A secret added or changed: deliveries refused for their signature may be this bot's.
  signing.onChange(() => {
    try {
      const added = inbox.recheck();
      announce(added);
      if (added.length) o.onRelay?.(relayView());
    } catch (error) {
      log(`leads: checking refused deliveries again failed: ${(error as Error).message}`);
    }
  });
  let running: RunningReceiver | null = null;
  let lastError: AppError | null = null;

  const stored = (): ReceiverConfig => {
    const row = prep('SELECT host, port, path FROM leads_receiver WHERE id = 1').get() as
      | ReceiverConfig
      | undefined;
    return { ...DEFAULTS, ...row };
  };
  const saved = (): ReceiverConfig => ({ ...stored(), ...o.receiver });
  const save = (c: ReceiverConfig) =>
    prep(
      `INSERT INTO leads_receiver (id, host, port, path) VALUES (1, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, port = excluded.port, path = excluded.path`,
    ).run(c.host, c.port, c.path);

  function view(): ReceiverView {
    const c = saved();
    return {
      running: running !== null,
      url: running?.url ?? null,
      host: running?.host ?? c.host,
      port: running?.port ?? c.port,
      path: running?.path ?? c.path,
      error: lastError,
    };
  }

  async function listen(c: ReceiverConfig): Promise<RunningReceiver> {
    return startLeadReceiver({
      ...c,
      store,
      keys: () => signing.all(),
      onLead: (lead) => o.onLead(toLeadView(lead)),
      log,
    });
  }

  async function start(): Promise<Result<ReceiverView>> {
    relay.start();
    return startReceiver();
  }

  async function startReceiver(): Promise<Result<ReceiverView>> {
    if (running) return ok(view());
    const c = saved();
    lastError = null;
    try {
      running = await listen(c);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== 'EADDRINUSE' || c.port === 0) {
        lastError = appError(
          'LEADS-RECEIVER-FAILED',
          `The lead receiver could not listen on ${c.host}:${c.port} (${code ?? (error as Error).message}).`,
        );
        o.onReceiver?.(view());
        return err(lastError);
      }
      // The remembered port is taken: take another and say so, since a real bot's editor holds the old URL.
      running = await listen({ ...c, port: 0 });
      lastError = appError(
        'LEADS-PORT-CHANGED',
        `Port ${c.port} was taken, so the lead receiver now listens on ${running.port}: update the webhook URL (or the tunnel) to ${running.url}.`,
      );
    }
    // The first free port picked becomes the remembered one, so the URL pasted in a bot's editor keeps working.
    save({
      host: c.host,
      port: o.receiver?.port !== undefined ? saved().port : running.port,
      path: running.path,
    });
    o.onReceiver?.(view());
    return ok(view());
  }

  async function stopReceiver(): Promise<void> {
    const r = running;
    running = null;
    await r?.close();
  }

  /** Each listener in turn (the demo bot's webhook is set before the reply says where it posts). */
  async function tellSourceChanged(): Promise<void> {
    for (const fn of [...sourceListeners]) await fn();
  }

  async function stop(): Promise<void> {
    await Promise.all([stopReceiver(), relay.stop()]);
  }

  return {
    signing,
    start,
    stop,
    receiver: view,
    async configure(c: Partial<ReceiverConfig> & { exposeToNetwork?: true }): Promise<Result<ReceiverView>> {
      const { exposeToNetwork, ...change } = c;
      if (change.host !== undefined && !isLoopbackHost(change.host) && exposeToNetwork !== true)
        return err(
          appError(
            'LEADS-HOST-NEEDS-CONFIRMATION',
            `Listening on ${change.host} lets every machine that reaches this one post to the lead receiver, not only a tunnel on this computer. Confirm to open it to the network, or keep 127.0.0.1 and use a tunnel or a relay.`,
          ),
        );
      save({ ...stored(), ...change });
      await stopReceiver();
      return startReceiver();
    },
    relay: relayView,
    /**
     * Where the sandbox's demo bot should post: the relay's webhook URL while a relay whose webhook URL
     * was given is in use, else this computer's receiver (null when it is not running).
     */
    sandboxWebhook(): { url: string; via: 'relay' } | { url: string | null; via: 'receiver' } {
      const hook = relay.view().source === 'relay' ? relayConfig.webhookUrl() : null;
      return hook ? { url: hook, via: 'relay' } : { url: running?.url ?? null, via: 'receiver' };
    },
    /** The knowledge section pointed the demo bot (or removed it: null). */
    noteSandboxBot(via: RelayView['sandboxBot']): void {
      if (via === sandboxBot) return;
      sandboxBot = via;
      o.onRelay?.(relayView());
    },
    /** A relay was connected or left: the sandbox's demo bot is pointed again. */
    onSourceChange(fn: () => void | Promise<void>): () => void {
      sourceListeners.add(fn);
      return () => sourceListeners.delete(fn);
    },
    restartRelay: () => relay.restart(),
    /** Pulls what the relay holds for this desk, until caught up (the CLI's `leads`). */
    pullOnce: () => relay.pullOnce(),
    rejected: (): RejectedDelivery[] => inbox.rejected(),
    async connectRelay(c: {
      url?: string | undefined;
      token?: string | undefined;
      printed?: string | undefined;
      webhookUrl?: string | undefined;
      deskName?: string | undefined;
      allowInsecure?: true | undefined;
    }): Promise<Result<RelayView>> {
      if (o.env?.ASSETS_RELAY_URL?.trim())
        return err(
          appError(
            'RELAY-FROM-ENV',
            'ASSETS_RELAY_URL sets the relay for this app: change it there, or unset it.',
          ),
        );
      let url = c.url;
      let token = c.token;
      let webhookUrl = c.webhookUrl;
      if (c.printed) {
        const p = readPrinted(c.printed);
        if (!p.ok) return p;
        url ??= p.value.url;
        token ??= p.value.token;
        webhookUrl ??= p.value.webhookUrl;
      }
      if (webhookUrl !== undefined && !isWebAddress(webhookUrl))
        return err(
          appError(
            'RELAY-WEBHOOK-URL',
            `"${webhookUrl}" is not the relay's webhook URL (https://…/hooks/wh_…, from the line it printed).`,
          ),
        );
      if (!url || !token)
        return err(
          appError(
            'RELAY-INCOMPLETE',
            "Give the relay's address and its read token, or paste what it printed.",
          ),
        );
      const normalized = normalizeRelayUrl(url, c.allowInsecure === true);
      if (!normalized.ok) return normalized;
      // Asked once before anything is saved: a wrong address or token is said now, not on the next pull.
      const probe = await fetchFeed({ url: normalized.value, token }, 0, 0);
      if (!probe.ok) return probe;
      try {
        relayConfig.save({
          url: normalized.value,
          token,
          deskName: c.deskName ?? relayConfig.deskName(),
          allowInsecure: c.allowInsecure === true,
          ...(webhookUrl !== undefined ? { webhookUrl } : {}),
        });
      } catch (e) {
        return err(appError((e as { code?: string }).code ?? 'SECRETS', (e as Error).message));
      }
      await relay.restart();
      await tellSourceChanged();
      const v = relayView();
      o.onRelay?.(v);
      return ok(v);
    },
    async disconnectRelay(): Promise<Result<RelayView>> {
      await relay.stop();
      try {
        relayConfig.remove();
      } catch (e) {
        return err(appError((e as { code?: string }).code ?? 'SECRETS', (e as Error).message));
      }
      await tellSourceChanged();
      const v = relayView();
      o.onRelay?.(v);
      return ok(v);
    },
    list(filter: { event?: string; handled?: boolean; query?: string; limit?: number } = {}): LeadView[] {
      return store.list(filter).map(toLeadView);
    },
    /** One lead with the whole delivery it came in, indented for reading. */
    detail(leadId: number): Result<LeadDetail> {
      const lead = store.get(leadId);
      const raw = store.rawBody(leadId);
      if (!lead || raw === null) return err(appError('LEAD-NOT-FOUND', `There is no lead ${leadId}.`));
      let payload = raw;
      try {
        payload = JSON.stringify(JSON.parse(raw), null, 2);
      } catch {
        // Stored only after a JSON parse succeeded; shown as received if that ever changes.
      }
      return ok({ lead: toLeadView(lead), payload });
    },
    /** Leads of a bot that went with the sandbox. */
    forgetLeadsOf(botId: number): number {
      return store.removeByBot(botId);
    },
    /** Kept here at once; sent to the relay now, or by its next pull if it cannot be reached. */
    setHandled(leadId: number, handled: boolean): Result<LeadView> {
      const l = store.setHandled(leadId, handled, relayConfig.deskName(), (o.now ?? Date.now)());
      if (!l) return err(appError('LEAD-NOT-FOUND', `There is no lead ${leadId}.`));
      void relay.pushNow();
      return ok(toLeadView(l));
    },
    /** `sandbox`: the app is on the sandbox, whose clock the leads' start times are on. */
    exportCsv(
      filter: { event?: string; handled?: boolean; query?: string } = {},
      o: { sandbox?: boolean } = {},
    ): {
      filename: string;
      csv: string;
    } {
      const date = new Date().toISOString().slice(0, 10);
      return {
        filename: `leads-${date}.csv`,
        csv: leadsToCsv(store.list({ ...filter, limit: 1_000_000 }), o),
      };
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;

/** An http(s) address with a host: what the service can post to. */
function isWebAddress(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}
