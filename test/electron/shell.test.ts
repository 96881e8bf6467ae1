import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDispatcher } from '../../src-main/core/app/dispatcher';
import { DEFAULT_SETTINGS, type LeadView, type SyncOverview } from '../../src-shared/contract';
import { ok } from '../../src-shared/errors';

// Electron's APIs cannot run here: a stand-in module records what the shell asks of them. Everything
// else (the contract, the dispatcher, the protocol handler) is the real code.
const exposed: Record<string, unknown> = {};
const invoke = vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null }));
vi.mock('electron', () => ({
  Notification: { isSupported: () => false },
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
  ipcRenderer: { invoke, on: vi.fn() },
  webUtils: { getPathForFile: (f: { path: string }) => f.path },
}));

const { mainWindowOptions } = await import('../../src-main/electron/window-options');
const { hardenContents, denyPermissions, isExternalLink } = await import('../../src-main/electron/harden');
const { registerIpc, isTrustedSender } = await import('../../src-main/electron/ipc');
const { IPC } = await import('../../src-main/electron/ipc-channels');
const { serveAppRequest, CSP } = await import('../../src-main/electron/app-protocol');
const { trayView, TRAY_STATES } = await import('../../src-main/electron/tray-state');
const { createNotifier, noticeFor, QUIET_MS } = await import('../../src-main/electron/notifications');

function fakeContents() {
  const handlers = new Map<string, (...a: unknown[]) => void>();
  let openHandler: ((d: { url: string }) => { action: string }) | null = null;
  return {
    on: (name: string, h: (...a: unknown[]) => void) => handlers.set(name, h),
    setWindowOpenHandler: (h: (d: { url: string }) => { action: string }) => {
      openHandler = h;
    },
    fire(name: string, url: string) {
      const event = { preventDefault: vi.fn() };
      handlers.get(name)!(event, url);
      return event.preventDefault.mock.calls.length > 0;
    },
    open: (url: string) => openHandler!({ url }),
  };
}

describe('window options', () => {
  it('isolate and sandbox the page, with no Node and no webviews', () => {
    const o = mainWindowOptions('/app/out/electron/preload.cjs');
    expect(o.webPreferences).toMatchObject({
      preload: '/app/out/electron/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      // The PDF preview is Chromium's PDF viewer, a plugin.
      plugins: true,
    });
  });
});

describe('navigation and new windows', () => {
  it('blocks navigation away from app://renderer', () => {
    const c = fakeContents();
    hardenContents(c as never, async () => {});
    expect(c.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(c.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(c.fire('will-redirect', 'http://127.0.0.1:9/')).toBe(true);
    expect(c.fire('will-navigate', 'app://renderer/index.html')).toBe(false);
  });

  it('denies every new window; http(s), mailto and tel links go to the system, nothing else does', () => {
    const c = fakeContents();
    const opened: string[] = [];
    hardenContents(c as never, async (url) => void opened.push(url));
    expect(c.open('https://cdn.example/storage/1/a.png').action).toBe('deny');
    expect(c.open('http://127.0.0.1:8080/storage/1/b.pdf').action).toBe('deny');
    expect(c.open('file:///etc/passwd').action).toBe('deny');
    expect(c.open('javascript:alert(1)').action).toBe('deny');
    expect(c.open('smb://share/x').action).toBe('deny');
    expect(c.open('mailto:asha@example.com').action).toBe('deny');
    expect(c.open('tel:+919811122222').action).toBe('deny');
    expect(c.open('ms-settings:privacy').action).toBe('deny');
    expect(opened).toEqual([
      'https://cdn.example/storage/1/a.png',
      'http://127.0.0.1:8080/storage/1/b.pdf',
      'mailto:asha@example.com',
      'tel:+919811122222',
    ]);
    expect(isExternalLink('not a url')).toBe(false);
  });

  it('denies every permission request and check', () => {
    let request: ((c: unknown, p: string, cb: (ok: boolean) => void) => void) | null = null;
    let check: (() => boolean) | null = null;
    denyPermissions({
      setPermissionRequestHandler: (h: typeof request) => (request = h),
      setPermissionCheckHandler: (h: typeof check) => (check = h),
    } as never);
    const answers: boolean[] = [];
    request!(null, 'media', (v) => answers.push(v));
    request!(null, 'notifications', (v) => answers.push(v));
    expect(answers).toEqual([false, false]);
    expect(check!()).toBe(false);
  });
});

describe('IPC', () => {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>();
  const ipcMain = {
    handle: (ch: string, h: (event: unknown, ...args: unknown[]) => Promise<unknown>) => handlers.set(ch, h),
    removeHandler: (ch: string) => handlers.delete(ch),
  };
  const calls: string[] = [];
  // The real dispatcher: it validates each request against the contract.
  const dispatch = createDispatcher([
    {
      name: 'settings',
      handlers: {
        'settings.get': async () => ok(DEFAULT_SETTINGS),
        'settings.update': async (r) => ok({ ...DEFAULT_SETTINGS, ...r }),
      },
    },
  ]);
  const core = {
    dispatch: (name: string, req: unknown) => {
      calls.push(name);
      return dispatch(name, req);
    },
  };
  const app = { url: 'app://renderer/index.html', parent: null };
  let unregister: () => void;

  beforeAll(() => {
    unregister = registerIpc(ipcMain as never, core, async () => '/home/me/site');
  });
  afterAll(() => unregister());

  it('answers the app page top frame, validated by the contract', async () => {
    const call = handlers.get(IPC.call)!;
    expect(await call({ senderFrame: app }, 'settings.get', {})).toEqual(ok(DEFAULT_SETTINGS));
    const bad = (await call({ senderFrame: app }, 'settings.update', { concurrency: 'lots' })) as {
      ok: false;
      error: { code: string; message: string };
    };
    expect(bad.ok).toBe(false);
    expect(bad.error.code).toBe('VALIDATION');
    expect(bad.error.message).toMatch(/concurrency/);
  });

  it('refuses other origins, subframes and unknown commands before the core sees them', async () => {
    const call = handlers.get(IPC.call)!;
    calls.length = 0;
    for (const frame of [
      { url: 'https://evil.example/', parent: null },
      { url: 'app://renderer/index.html', parent: { url: 'app://renderer/' } },
      { url: 'file:///tmp/x.html', parent: null },
      null,
    ]) {
      const r = (await call({ senderFrame: frame }, 'settings.get', {})) as {
        ok: boolean;
        error: { code: string };
      };
      expect(r.ok).toBe(false);
      expect(r.error.code).toBe('IPC-REFUSED');
    }
    const unknown = (await call({ senderFrame: app }, 'fs.readFile', { path: '/etc/passwd' })) as {
      error: { code: string };
    };
    expect(unknown.error.code).toBe('IPC-REFUSED');
    expect(calls).toEqual([]);
    expect(
      await handlers.get(IPC.pickFolder)!({ senderFrame: { url: 'https://evil.example/', parent: null } }),
    ).toBe(null);
    expect(await handlers.get(IPC.pickFolder)!({ senderFrame: app })).toBe('/home/me/site');
    expect(isTrustedSender({ url: 'app://rendererx/', parent: null } as never)).toBe(false);
  });
});

describe('preload', () => {
  it('exposes only the typed bridge, and calls go through one channel', async () => {
    await import('../../src-main/electron/preload');
    const bridge = exposed.assetsSync as Record<string, (...a: unknown[]) => unknown>;
    expect(Object.keys(bridge).sort()).toEqual(['call', 'pathForFile', 'pickFolder', 'shell', 'subscribe']);
    await bridge.call!('settings.get', {});
    expect(invoke).toHaveBeenCalledWith(IPC.call, 'settings.get', {});
    expect(bridge.pathForFile!({ path: '/tmp/a.png' })).toBe('/tmp/a.png');
  });
});

describe('app:// protocol', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'app-proto-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'assets', 'a.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves the renderer with the CSP, and nothing outside it', async () => {
    const index = await serveAppRequest(dir, 'app://renderer/index.html');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe(CSP);
    expect(CSP).toContain("script-src 'self'");
    expect(CSP).not.toContain('unsafe');
    // Previews read the CDN over http(s) and nothing else: no data:, blob: or file: objects or frames.
    expect(CSP).toContain('object-src http: https:;');
    expect(CSP).toContain('frame-src http: https:;');
    expect(CSP).not.toMatch(/(object|frame|media)-src[^;]*(data:|blob:|file:|\*)/);
    expect((await serveAppRequest(dir, 'app://renderer/assets/a.js')).headers.get('content-type')).toMatch(
      /javascript/,
    );
    expect(
      (await serveAppRequest(dir, 'app://renderer/%2e%2e/%2e%2e/etc/passwd')).status,
    ).toBeGreaterThanOrEqual(403);
    expect((await serveAppRequest(dir, 'app://other/index.html')).status).toBe(404);
    expect((await serveAppRequest(dir, 'app://renderer/missing.js')).status).toBe(404);
  });
});

describe('tray', () => {
  const overview = (patch: Partial<SyncOverview>): SyncOverview => ({
    state: 'idle',
    held: null,
    folders: [],
    budget: { perMinute: 110, usedLastMinute: 0 },
    concurrency: 4,
    offline: null,
    nextCheckAt: null,
    ...patch,
  });
  it('shows idle, syncing, paused and error, with the matching toggle', () => {
    expect(trayView(null).state).toBe('idle');
    const folder = {
      id: 1,
      path: '/a',
      bucket: 'b',
      mode: 'upload-only' as const,
      paused: false,
      followOutsideLinks: false,
      problem: null,
      inSync: true,
    };
    const syncing = trayView(
      overview({
        state: 'syncing',
        folders: [
          {
            ...folder,
            counts: { live: 1, pending: 3, failed: 0, skipped: 0, removedByYou: 0, retrying: 0, active: 0 },
          },
        ],
      }),
    );
    expect(syncing).toMatchObject({ state: 'syncing', toggle: 'Pause syncing' });
    expect(syncing.tooltip).toContain('3 files to go');
    const paused = trayView(
      overview({ state: 'paused', held: { code: 'USER-PAUSED', message: 'You paused syncing.' } }),
    );
    expect(paused).toMatchObject({ state: 'paused', toggle: 'Resume syncing' });
    const money = trayView(
      overview({ state: 'paused', held: { code: 'UPLOADS-PAUSED', message: 'Rent unpaid.' } }),
    );
    expect(money.tooltip).toContain('Rent unpaid.');
    expect(money.state).toBe('paused');
    // The state is the status model's, from the facts: a file failed for good is "error".
    const failed = trayView(
      overview({
        state: 'error',
        folders: [
          {
            ...folder,
            counts: { live: 0, pending: 0, failed: 1, skipped: 0, removedByYou: 0, retrying: 0, active: 0 },
          },
        ],
      }),
    );
    expect(failed.state).toBe('error');
    expect(failed.tooltip).toBe('Assets Sync: 1 needs attention — 1 file failed');
    const stopped = trayView(
      overview({ state: 'error', held: { code: 'UNAUTHENTICATED', message: 'The API key was refused.' } }),
    );
    expect(stopped).toMatchObject({ state: 'error', toggle: 'Pause syncing' });
    expect(stopped.tooltip).toBe('Assets Sync: Key refused — The API key was refused.');
    const vanished = trayView(
      overview({
        state: 'error',
        folders: [
          {
            ...folder,
            problem: 'The folder /a is gone.',
            counts: { live: 0, pending: 0, failed: 0, skipped: 0, removedByYou: 0, retrying: 0, active: 0 },
          },
        ],
      }),
    );
    expect(vanished.tooltip).toContain('The folder /a is gone.');
  });

  it('shows the offline icon while the service gives no answer, whatever the sync state says', () => {
    const offline = { since: 1, nextTryAt: 2, waiting: 3, message: 'connect ECONNREFUSED' };
    // Files waiting keep the core's state at "syncing"; nothing waiting leaves it "idle": both are offline.
    for (const state of ['idle', 'syncing'] as const) {
      const pending = state === 'syncing' ? 3 : 0;
      const counts = { live: 0, pending, failed: 0, skipped: 0, removedByYou: 0, retrying: 0, active: 0 };
      const folders = [
        {
          id: 1,
          path: '/a',
          bucket: 'b',
          mode: 'upload-only' as const,
          paused: false,
          followOutsideLinks: false,
          problem: null,
          inSync: pending === 0,
          counts,
        },
      ];
      const v = trayView(overview({ state, offline, folders }));
      expect(v.state).toBe('offline');
      // The files waiting are the folders' (the status model's count), said only when some wait.
      expect(v.tooltip).toBe(pending ? 'Assets Sync: Offline — 3 files waiting' : 'Assets Sync: Offline');
    }
    expect(trayView(overview({ state: 'idle', offline: null })).state).toBe('idle');
  });

  it('has an icon drawn for every state it can show (build/make-icons.mjs)', () => {
    for (const s of TRAY_STATES) {
      const png = readFileSync(join(import.meta.dirname, '../../build/icons', `tray-${s}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    }
    expect(TRAY_STATES).toContain('offline');
  });
});

describe('native notifications', () => {
  const settings = { ...DEFAULT_SETTINGS };
  const shown: { title: string; body: string; urgency?: string }[] = [];
  const clicks: (() => void)[] = [];
  let supported = true;
  // The stand-in for Electron's Notification class: records what the shell shows.
  class FakeNotification {
    static isSupported = () => supported;
    constructor(private readonly o: { title: string; body: string; urgency?: string }) {}
    on(_event: 'click', listener: () => void) {
      clicks.push(listener);
    }
    show() {
      shown.push(this.o);
    }
  }
  let t = 0;
  let opened = 0;
  const notifier = createNotifier({
    settings: () => settings,
    open: () => opened++,
    now: () => t,
    Notification: FakeNotification,
  });
  const notify = (kind: 'in-sync' | 'paused-money' | 'error', body: string) =>
    notifier.handle({ event: 'notify', payload: { kind, title: `T ${kind}`, body } });
  const lead = (id: number, patch: Partial<LeadView> = {}): LeadView => ({
    id,
    botId: 1,
    botName: 'Demo bot',
    businessName: 'Acme Dental',
    conversationId: 100 + id,
    event: 'LEAD-CAPTURED',
    name: 'Asha Rao',
    email: 'asha@example.com',
    phone: '+91 98450 00000',
    note: 'Wants a cleaning on Friday',
    askedForAPerson: false,
    visitorRef: 'v1',
    startedAt: '2026-11-20 10:00',
    receivedAt: '2026-11-20 10:05',
    handledAt: null,
    handledBy: null,
    ...patch,
  });

  it('show a folder in sync, uploads paused for money and errors, once per moment', () => {
    shown.length = 0;
    notify('in-sync', '/site is up to date.');
    notify('in-sync', '/site is up to date.'); // the same folder flipping again: quiet
    notify('paused-money', 'Rent unpaid: uploads wait until a top-up.');
    notify('error', 'The API key was refused.');
    expect(shown.map((n) => [n.title, n.urgency])).toEqual([
      ['T in-sync', 'low'],
      ['T paused-money', 'normal'],
      ['T error', 'critical'],
    ]);
    t += QUIET_MS;
    notify('in-sync', '/site is up to date.');
    expect(shown).toHaveLength(4);
    clicks.at(-1)!();
    expect(opened).toBe(1);
  });

  it('show each new lead once, naming the bot and the contact; a handoff is urgent', () => {
    shown.length = 0;
    notifier.handle({ event: 'leads.new', payload: lead(1) });
    notifier.handle({ event: 'leads.new', payload: lead(1) });
    notifier.handle({
      event: 'leads.new',
      payload: lead(2, {
        event: 'HANDOFF-REQUESTED',
        askedForAPerson: true,
        name: '',
        email: '',
        note: null,
      }),
    });
    expect(shown).toEqual([
      {
        title: 'New lead: Asha Rao',
        body: 'Demo bot (Acme Dental)\nasha@example.com · +91 98450 00000\nWants a cleaning on Friday',
        urgency: 'normal',
        silent: false,
      },
      {
        title: 'A visitor asked for a person',
        body: 'Demo bot (Acme Dental)\n+91 98450 00000',
        urgency: 'critical',
        silent: false,
      },
    ]);
  });

  it('show a catch-up through the relay as one notification, not one per lead', () => {
    expect(noticeFor({ event: 'leads.arrived', payload: { count: 40 } })).toMatchObject({
      title: '40 new leads',
      urgency: 'normal',
    });
  });

  it('stay quiet when turned off in Settings, where unsupported, and for other events', () => {
    shown.length = 0;
    settings.notifications = false;
    notify('error', 'off');
    settings.notifications = true;
    supported = false;
    notify('error', 'unsupported');
    supported = true;
    expect(notifier.handle({ event: 'settings.changed', payload: settings })).toBe(null);
    expect(
      noticeFor({ event: 'clock.changed', payload: { offsetMs: 0, source: 'machine', measuredAt: null } }),
    ).toBe(null);
    expect(shown).toEqual([]);
  });
});
