import { join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, session, shell } from 'electron';
import {
  type AnyEvent,
  DEFAULT_SETTINGS,
  type OfficeStatus,
  type Settings,
  type SyncOverview,
} from '../../src-shared/contract';
import type { KbBotView } from '../../src-shared/contract/kb';
import { createAppService, defaultDataDir, trayPresets } from '../core';
import { APP_ORIGIN, APP_SCHEME, serveAppRequest } from './app-protocol';
import { denyPermissions, hardenContents } from './harden';
import { registerIpc } from './ipc';
import { IPC } from './ipc-channels';
import { createNotifier } from './notifications';
import { createTray } from './tray';
import type { TrayLeads } from './tray-state';
import { mainWindowOptions } from './window-options';

// The bundle lives in out/electron; the renderer build beside it in out/renderer, icons in build/.
const ROOT = join(__dirname, '..', '..');
const RENDERER_DIR = join(ROOT, 'out', 'renderer');
const ICON_DIR = join(ROOT, 'build', 'icons');

protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  void start();
}

async function start() {
  await app.whenReady();
  let core: Awaited<ReturnType<typeof createAppService>>;
  try {
    core = await createAppService({ dataDir: defaultDataDir(), office: true });
  } catch (e) {
    // A data folder a later version migrated (DATA-NEWER), or one that cannot be opened: said, then quit.
    dialog.showErrorBox(
      'Assets Sync cannot open its data folder',
      e instanceof Error ? e.message : String(e),
    );
    app.quit();
    return;
  }
  let win: BrowserWindow | null = null;
  let overview: SyncOverview | null = null;
  let bots: readonly KbBotView[] = [];
  let office: OfficeStatus | null = null;
  let leads: TrayLeads = {};
  const saved = await core.call('settings.get', {});
  if (!saved.ok)
    console.error(
      `assets-sync: the settings could not be read (${saved.error.message}); using the defaults.`,
    );
  let settings: Settings = saved.ok ? saved.value : DEFAULT_SETTINGS;
  let quitting = false;

  protocol.handle(APP_SCHEME, (request) => serveAppRequest(RENDERER_DIR, request.url));
  denyPermissions(session.defaultSession);

  const open = () => {
    if (!win) {
      win = new BrowserWindow(mainWindowOptions(join(__dirname, 'preload.cjs')));
      hardenContents(win.webContents, (url) => shell.openExternal(url));
      win.once('ready-to-show', () => win?.show());
      win.on('close', (e) => {
        // Closing the window keeps syncing in the tray; Quit in the tray ends the app.
        if (!quitting) {
          e.preventDefault();
          win?.hide();
        }
      });
      win.on('closed', () => {
        win = null;
      });
      void win.loadURL(`${APP_ORIGIN}/index.html`);
    }
    win.show();
    win.focus();
  };

  registerIpc(ipcMain, core, async () => {
    const options: Electron.OpenDialogOptions = { properties: ['openDirectory', 'createDirectory'] };
    const r = await (win ? dialog.showOpenDialog(win, options) : dialog.showOpenDialog(options));
    return r.canceled ? null : (r.filePaths[0] ?? null);
  });

  const tray = createTray({
    iconDir: ICON_DIR,
    open,
    toggle: (pause) =>
      void core.call(pause ? 'sync.pause' : 'sync.resume', {}).then((r) => {
        if (!r.ok) console.error(`assets-sync: ${pause ? 'pause' : 'resume'} failed: ${r.error.message}`);
      }),
    presets: () => trayPresets(settings),
    setLimit: (bwlimit) =>
      void core.call('settings.update', { bwlimit }).then((r) => {
        if (!r.ok) console.error(`assets-sync: the upload limit was not set: ${r.error.message}`);
      }),
    quit: () => {
      quitting = true;
      app.quit();
    },
  });

  const applyLogin = (s: Settings) => app.setLoginItemSettings({ openAtLogin: s.startAtLogin });
  applyLogin(settings);
  const notifier = createNotifier({ settings: () => settings, open });

  core.subscribe((e: AnyEvent) => {
    win?.webContents.send(IPC.event, e);
    if (e.event === 'sync.changed') {
      overview = e.payload;
      tray.update(overview, office, bots, leads);
    } else if (e.event === 'office.changed') {
      office = e.payload;
      tray.update(overview, office, bots, leads);
    } else if (e.event === 'kb.botsChanged' || e.event === 'kb.changed') {
      // The knowledge outbox is in the app's one word too ("2 knowledge edits waiting: offline").
      bots =
        e.event === 'kb.botsChanged'
          ? e.payload.bots
          : bots.map((b) => (b.id === e.payload.bot.id ? e.payload.bot : b));
      tray.update(overview, office, bots, leads);
    } else if (e.event === 'leads.relay' || e.event === 'leads.receiver') {
      // A lead link that is down is in the app's word too ("Lead relay unreachable").
      leads = e.event === 'leads.relay' ? { ...leads, relay: e.payload } : { ...leads, receiver: e.payload };
      tray.update(overview, office, bots, leads);
    } else if (e.event === 'settings.changed') {
      settings = e.payload;
      applyLogin(e.payload);
    }
    notifier.handle(e);
  });
  // The relay's and the receiver's states are sent when they change; the first read is asked for.
  void Promise.all([core.call('leads.relay', {}), core.call('leads.receiver', {})]).then(
    ([relay, receiver]) => {
      leads = {
        relay: leads.relay ?? (relay.ok ? relay.value : null),
        receiver: leads.receiver ?? (receiver.ok ? receiver.value : null),
      };
      tray.update(overview, office, bots, leads);
    },
  );

  app.on('second-instance', open);
  app.on('activate', open);
  app.on('window-all-closed', () => {
    // Stay in the tray.
  });
  app.on('before-quit', () => {
    quitting = true;
  });
  app.on('will-quit', (e) => {
    e.preventDefault();
    tray.destroy();
    core.close().finally(() => app.exit(0));
  });
  open();
}
