import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core/app/app-service';
import { APP_MIGRATIONS } from '../../src-main/core/state/migrations';
import { trayView } from '../../src-main/electron/tray-state';

import { openDatabase } from '../../src-main/shared-node/sqlite';
import { Sidebar } from '../../src-renderer/App';
import { useSync } from '../../src-renderer/stores/sync-store';
import { FolderCard } from '../../src-renderer/views/folders/FolderCard';
import { ProblemsPanel, QueuePanel } from '../../src-renderer/views/folders/QueuePanel';
import { useKb } from '../../src-renderer/views/kb/kb-store';
import { LeadsStatusBadge } from '../../src-renderer/views/leads/LeadsView';
import { useLeads } from '../../src-renderer/views/leads/leads-store';
import { useRelay } from '../../src-renderer/views/leads/relay/relay-store';
import type { PayloadOf } from '../../src-shared/contract';
import { DAYS } from '../../src-shared/domain/bwlimit';
import { countsLine } from '../../src-shared/domain/status-model';
import { runCli } from '../cli/run-cli';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';
import { type SyncTestServer, startServer, until } from '../sync/helpers';

// Issue 31, "One voice": the folder card, the sidebar, the queue, the tray and `assets-sync status`
// render the same engine state and say the same words and counts, in the four states of the issue:
// knowledge offline, a failed file waiting to retry, a removed file, held by the schedule; and the
// leads' relay down, said by the Leads view's header and a notification too.

let server: SyncTestServer;
let root: string;
let app: Awaited<ReturnType<typeof createAppService>>;
const dataDir = () => join(root, 'data');

beforeAll(async () => {
  server = await startServer();
  root = mkdtempSync(join(tmpdir(), 'one-voice-'));
  app = await createAppService({
    dataDir: dataDir(),
    secrets: memorySecrets(),
    env: { ASSETS_API_KEY: server.demoKey },
    baseUrl: server.baseUrl,
    log: () => {},
    engine: { stabilityMs: 50, backoff: { baseMs: 3_600_000, capMs: 3_600_000, maxAttempts: 10 } },
  });
});
afterAll(async () => {
  await app?.close();
  await server?.admin('PUT', '/faults', { storage_fail_rate: 0 });
  await server?.stop();
  rmSync(root, { recursive: true, force: true });
});

const must = async <T,>(r: Promise<{ ok: true; value: T } | { ok: false; error: { message: string } }>) => {
  const x = await r;
  if (!x.ok) throw new Error(x.error.message);
  return x.value;
};

/** The text of the element with this test id in server-rendered markup, tags stripped. */
function textOf(html: string, testId: string): string | null {
  const at = html.indexOf(`data-testid="${testId}"`);
  if (at < 0) return null;
  const open = html.lastIndexOf('<', at);
  const tag = /^<([a-z0-9]+)/.exec(html.slice(open))![1]!;
  let depth = 0;
  const re = new RegExp(`<(/?)${tag}\\b[^>]*?(/?)>`, 'g');
  re.lastIndex = open;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    if (m[2]) continue;
    depth += m[1] ? -1 : 1;
    if (depth === 0)
      return html
        .slice(open, m.index + m[0].length)
        .replace(/<[^>]+>/g, '')
        .replace(/&#x27;/g, "'")
        .replace(/\s+/g, ' ')
        .trim();
  }
  return null;
}
const allTextsOf = (html: string, testId: string): string[] => {
  const out: string[] = [];
  let rest = html;
  for (let t = textOf(rest, testId); t !== null; t = textOf(rest, testId)) {
    out.push(t);
    rest = rest.slice(rest.indexOf(`data-testid="${testId}"`) + testId.length);
  }
  return out;
};

/** Every surface of the one engine state: what each says. */
async function surfaces(
  o: { app: AppService; dataDir: string; folder: string } = {
    app,
    dataDir: dataDir(),
    folder: join(root, 'photos'),
  },
) {
  const { app } = o;
  const dataDir = () => o.dataDir;
  const overview = await must(app.call('sync.overview', {}));
  const queue = await must(app.call('sync.queue', {}));
  const { bots } = await must(app.call('kb.bots', {}));
  const relay = await must(app.call('leads.relay', {}));
  const receiver = await must(app.call('leads.receiver', {}));
  // Server rendering reads a zustand store's initial state (its getServerSnapshot): the state is put there.
  Object.assign(useSync.getInitialState(), { overview, queue });
  Object.assign(useKb.getInitialState(), { bots });
  Object.assign(useRelay.getInitialState(), { relay });
  Object.assign(useLeads.getInitialState(), { receiver });
  const folder = overview.folders.find((f) => f.path === o.folder)!;
  const card = renderToStaticMarkup(<FolderCard folder={folder} />);
  const sidebar = renderToStaticMarkup(<Sidebar />);
  const queueHtml = renderToStaticMarkup(
    <>
      <QueuePanel queue={queue} />
      <ProblemsPanel queue={queue} folders={overview.folders} />
    </>,
  );
  const leadsHeader = renderToStaticMarkup(<LeadsStatusBadge />);
  const tray = trayView(overview, null, bots, { relay, receiver });
  const cli = await runCli(['status', '--json', '--data-dir', dataDir()]);
  expect(cli.code, cli.stderr).toBe(0);
  const cliFolder = cli.lines.find((l) => l.event === 'folder' && l.path === folder.path)!;
  const cliOverall = cli.lines.find((l) => l.event === 'overall')!;
  const cliText = (await runCli(['status', '--data-dir', dataDir()])).stdout;
  const count = (k: string) => Number(textOf(card, `count-${k}`) ?? 0);
  return {
    card: {
      word: textOf(card, 'folder-word'),
      pending: textOf(card, 'folder-pending'),
      counts: {
        live: count('live'),
        pending: count('pending'),
        failed: count('failed'),
        skipped: count('skipped'),
        removedByYou: count('removed-by-you'),
      },
    },
    sidebar: textOf(sidebar, 'sync-state'),
    leadsHeader: textOf(leadsHeader, 'leads-state'),
    queue: textOf(queueHtml, 'queue-summary'),
    problems: allTextsOf(queueHtml, 'problem-word'),
    tray: tray.tooltip
      .split('\n')[0]!
      .replace(/^Assets Sync: /, '')
      .replace(/ — .*$/, ''),
    trayDetail: /— (.*)$/.exec(tray.tooltip.split('\n')[0]!)?.[1] ?? null,
    trayState: tray.state,
    cli: {
      word: cliFolder.word as string,
      tally: cliFolder.tally as Record<string, number>,
      overall: cliOverall.word as string,
      leads: (cliOverall.leads as { word: string } | null)?.word ?? null,
      text: cliText,
    },
  };
}

function agree(s: Awaited<ReturnType<typeof surfaces>>) {
  // One word for the folder, one for the app, one set of counts, wherever they are read.
  expect(s.cli.word).toBe(s.card.word);
  expect(s.cli.tally).toMatchObject(s.card.counts);
  expect(s.tray).toBe(s.sidebar);
  expect(s.cli.overall).toBe(s.sidebar);
  expect(s.cli.text).toContain(`: ${s.card.word} · `);
  if (s.card.pending) expect(s.cli.text).toContain(s.card.pending);
}

const rowOf = (name: string) => {
  const db = openDatabase(join(dataDir(), 'app.sqlite'), APP_MIGRATIONS);
  try {
    return db
      .prepare(
        'SELECT state, reason_code AS code, next_retry_at AS retry, remote_id AS remoteId FROM sync_files WHERE name = ?',
      )
      .get(name) as
      | { state: string; code: string | null; retry: number | null; remoteId: number | null }
      | undefined;
  } finally {
    db.close();
  }
};

function hourNow(offsetHours = 0) {
  const d = new Date(Date.now() + offsetHours * 3_600_000);
  return `${DAYS[d.getDay()]}-${String(d.getHours()).padStart(2, '0')}:00`;
}

describe('one engine state, said the same by the card, the sidebar, the queue, the tray and the CLI', () => {
  it('knowledge offline, a removed file, a failed file waiting to retry, held by the schedule', async () => {
    const folder = join(root, 'photos');
    mkdirSync(folder);
    writeFileSync(join(folder, 'shop.png'), randomBytes(1024));
    writeFileSync(join(folder, 'banner.png'), randomBytes(1024));
    writeFileSync(join(folder, 'notes.exe'), randomBytes(64));
    await must(app.call('sync.folders.add', { path: folder, bucket: 'voice' }));
    await until(
      'two files live, one skipped',
      () =>
        rowOf('shop.png')?.state === 'LIVE' &&
        rowOf('banner.png')?.state === 'LIVE' &&
        rowOf('notes.exe')?.state === 'SKIPPED',
    );

    // A removed file: deleted from the CDN in the Files view, "stop syncing them".
    await must(
      app.call('files.bulkDelete.start', {
        ids: [rowOf('banner.png')!.remoteId!],
        folderFiles: 'stop-syncing',
      }),
    );
    await until('banner.png removed by you', () => rowOf('banner.png')?.code === 'REMOVED-BY-YOU');

    // Knowledge offline: a bot whose service gives no answer, two edits waiting.
    const bot = await must(
      app.call('kb.addBot', { name: 'Shop', baseUrl: 'http://127.0.0.1:9', token: 'tok' }),
    );
    await must(app.call('kb.create', { botId: bot.id, title: 'Hours', description: 'Open 9 to 5' }));
    await must(app.call('kb.create', { botId: bot.id, title: 'Returns', description: 'Within 7 days' }));
    await must(app.call('kb.syncNow', { botId: bot.id }));
    await until('the bot offline with 2 edits waiting', async () => {
      const b = (await must(app.call('kb.bots', {}))).bots[0];
      return b?.sync.state === 'offline' && b.counts.pending === 2;
    });
    const offline = await surfaces();
    expect(offline.card.word).toBe('In sync');
    expect(offline.card.counts).toEqual({ live: 1, pending: 0, failed: 0, skipped: 1, removedByYou: 1 });
    expect(offline.sidebar).toBe('2 knowledge edits waiting: offline');
    expect(offline.problems.sort()).toEqual(['Removed by you', 'Skipped']);
    agree(offline);

    // A failed file waiting for its retry (an hour away): pending, in the queue, never "needs attention".
    await server.admin('PUT', '/faults', { storage_fail_rate: 1 });
    writeFileSync(join(folder, 'sale.png'), randomBytes(1024));
    await until(
      'sale.png failed with its retry',
      () => rowOf('sale.png')?.state === 'FAILED' && rowOf('sale.png')?.retry != null,
    );
    const retrying = await surfaces();
    expect(retrying.card.word).toBe('Waiting to retry');
    expect(retrying.card.pending).toBe('1 waiting to retry');
    expect(retrying.card.counts).toEqual({ live: 1, pending: 1, failed: 0, skipped: 1, removedByYou: 1 });
    expect(retrying.queue).toBe('0 in progress · 1 waiting (1 to retry)');
    expect(retrying.problems.sort()).toEqual(['Removed by you', 'Skipped', 'Will retry']);
    expect(retrying.sidebar).toBe('Waiting to retry');
    agree(retrying);

    // Held by the schedule: this hour paused. Nothing says "Syncing"; the queue says why files wait.
    await must(app.call('settings.update', { bwSchedule: `${hourNow()},pause ${hourNow(1)},normal` }));
    await until(
      'the schedule holds',
      async () => (await must(app.call('sync.overview', {}))).holds?.schedule != null,
    );
    const held = await surfaces();
    expect(held.card.word).toBe('Paused by the schedule');
    expect(held.card.pending).toMatch(/^1 waiting: paused by the schedule until \d\d:\d\d IST$/);
    expect(held.sidebar).toBe('Paused by the schedule');
    expect(held.queue).toBe('1 waiting (paused by the schedule)');
    expect(held.trayState).toBe('paused');
    agree(held);
  });
});

describe('the leads in the one voice: the relay down, said everywhere the app speaks and by a notification', () => {
  it('a folder in sync, the relay unreachable', { timeout: 90_000 }, async () => {
    const home = mkdtempSync(join(tmpdir(), 'one-voice-leads-'));
    const desk = await createAppService({
      dataDir: join(home, 'data'),
      secrets: memorySecrets(),
      // A relay set by the environment that does not answer (nothing listens on the discard port).
      env: {
        ASSETS_API_KEY: server.demoKey,
        ASSETS_RELAY_URL: 'http://127.0.0.1:9',
        ASSETS_RELAY_TOKEN: 'tok',
      },
      baseUrl: server.baseUrl,
      log: () => {},
      engine: { stabilityMs: 50 },
    });
    const notices: PayloadOf<'notify'>[] = [];
    const off = desk.subscribe((e) => {
      if (e.event === 'notify') notices.push(e.payload);
    });
    try {
      await server.admin('PUT', '/faults', { storage_fail_rate: 0 });
      const folder = join(home, 'shop');
      mkdirSync(folder);
      writeFileSync(join(folder, 'logo.png'), randomBytes(1024));
      writeFileSync(join(folder, 'notes.exe'), randomBytes(64));
      await must(desk.call('sync.folders.add', { path: folder, bucket: 'leads-voice' }));
      await untilEvent(desk, 'the folder in sync, said', () => notices.some((n) => n.kind === 'in-sync'));
      await untilEvent(
        desk,
        'the relay unreachable',
        async () => (await must(desk.call('leads.relay', {}))).error?.code === 'RELAY-UNREACHABLE',
      );
      const s = await surfaces({ app: desk, dataDir: join(home, 'data'), folder });
      // The folder is in sync; the app's word is the leads' link: leads wait at the relay, unread.
      expect(s.card.word).toBe('In sync');
      expect(s.sidebar).toBe('Lead relay unreachable');
      expect(s.leadsHeader).toBe('Lead relay unreachable');
      expect(s.trayState).toBe('offline');
      expect(s.cli.leads).toBe('Lead relay unreachable');
      agree(s);
      // The folder's notification says the card's word and counts.
      const inSync = notices.find((n) => n.kind === 'in-sync')!;
      expect(inSync.title).toBe(s.card.word);
      expect(inSync.body).toBe(`${folder} · ${countsLine(s.card.counts)}`);
      expect(inSync.body).toBe(`${folder} · Live 1 · Skipped 1`);
      // The notification of the relay down: the sidebar's word, the tray's detail; once, not at each retry.
      await untilEvent(desk, 'the leads notice', () => notices.some((n) => n.kind === 'leads'));
      const notice = notices.find((n) => n.kind === 'leads')!;
      expect(notice.title).toBe(s.sidebar);
      expect(notice.body).toBe(s.trayDetail);
      expect(notice.body).toMatch(
        /^The relay at http:\/\/127\.0\.0\.1:9 could not be reached .* Leads wait at the relay/,
      );
      expect(notices.filter((n) => n.kind === 'leads')).toHaveLength(1);
    } finally {
      off();
      await desk.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
