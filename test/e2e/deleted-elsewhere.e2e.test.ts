import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/run-cli';
import { untilEvent } from '../support/wait';
import { screens, ZOOMABLE } from './screens';
import { browserApp, must, SCREENSHOTS } from './stack';

/**
 * Issue 31, "what one view learns, all views know", in Chromium against a real core and its sandbox,
 * the index keeper at its own cadence: files of two watched folders deleted through the API while the
 * app runs and nobody touches it. The app notices within 90 s by itself; the running folder sends its
 * file again under a new link; the card never counts the dead link as Live once the index dropped it
 * (checked in the core at every moment the test can look, and on the card as it renders); a paused
 * folder keeps its file pending, and `assets-sync status` no longer says LIVE for it.
 */
describe.sequential('a file deleted elsewhere while the app runs', () => {
  const f = browserApp('deleted-elsewhere-e2e-', { engine: { stabilityMs: 150 } });
  let page: Page;
  const sql = () => f.app.context.db;
  const indexHas = (id: number) =>
    sql().prepare('SELECT 1 FROM remote_index_files WHERE id = ?').get(id) !== undefined;
  const liveOn = (id: number) =>
    sql().prepare("SELECT 1 FROM sync_files WHERE remote_id = ? AND state = 'LIVE'").get(id) !== undefined;
  const row = (name: string) =>
    sql().prepare('SELECT state, remote_id AS remoteId FROM sync_files WHERE name = ?').get(name) as {
      state: string;
      remoteId: number | null;
    };
  const card = (path: string) => page.getByRole('article', { name: `Folder ${path}` });

  let leaflets: string;
  let posters: string;

  beforeAll(async () => {
    page = await f.sandboxPage(ZOOMABLE);
    leaflets = join(f.root, 'leaflets');
    posters = join(f.root, 'posters');
    mkdirSync(leaflets);
    mkdirSync(posters);
    for (const n of ['autumn.pdf', 'banner.pdf', 'winter.pdf'])
      writeFileSync(join(leaflets, n), `%PDF-1.4 ${n}`);
    for (const n of ['poster-a.pdf', 'poster-b.pdf']) writeFileSync(join(posters, n), `%PDF-1.4 ${n}`);
    await must(f.app.call('sync.folders.add', { path: leaflets, bucket: 'leaflets' }));
    await must(f.app.call('sync.folders.add', { path: posters, bucket: 'posters' }));
    await untilEvent(f.app, 'five files live and indexed', async () => {
      const o = await must(f.app.call('sync.overview', {}));
      const s = await f.app.call('files.index.summary', {});
      return (
        o.folders.reduce((n, x) => n + x.counts.live, 0) === 5 &&
        s.ok &&
        s.value.status.complete &&
        s.value.count === 5
      );
    });
  }, 120_000);

  let timer: ReturnType<typeof setInterval> | undefined;
  afterAll(async () => {
    clearInterval(timer);
    await page?.close();
  });

  it('is noticed within 90 s, sent again, never Live on its dead link; a paused folder keeps it pending and the CLI agrees', async () => {
    const o = await must(f.app.call('sync.overview', {}));
    const posterFolder = o.folders.find((x) => x.path === posters)!;
    await must(f.app.call('sync.pause', { folderId: posterFolder.id }));
    const banner = row('banner.pdf');
    const poster = row('poster-b.pdf');
    expect(banner.state).toBe('LIVE');
    const dead = [banner.remoteId!, poster.remoteId!];

    // The card's Live count for the running folder, each value it shows, as Chromium renders it.
    await expect.poll(() => card(leaflets).getByTestId('count-live').textContent()).toBe('3');
    await page.evaluate((path) => {
      const w = window as unknown as { liveSeen: string[] };
      w.liveSeen = [];
      const read = () => {
        const v = document.querySelector(
          `[aria-label="Folder ${path}"] [data-testid="count-live"]`,
        )?.textContent;
        if (v && v !== w.liveSeen.at(-1)) w.liveSeen.push(v);
      };
      read();
      new MutationObserver(read).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    }, leaflets);

    // The core, looked at every event and every 25 ms: the index without the file and a Live row on it
    // at once is what the issue saw ("Files shows 15, the card says Live 16").
    const broken: string[] = [];
    const look = () => {
      for (const id of dead)
        if (!indexHas(id) && liveOn(id)) broken.push(`file ${id} Live after the index dropped it`);
    };
    const off = f.app.subscribe(look);
    timer = setInterval(look, 25);
    try {
      const c = f.live();
      const other = async (id: number) => {
        const r = await fetch(`${c.baseUrl}/api/assets/v1/files/${id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${c.apiKey}` },
        });
        expect(r.status).toBe(202);
      };
      await other(dead[0]!);
      await other(dead[1]!);
      const deletedAt = Date.now();

      // Bounded, so that a watch too slow fails here by name (not at the test's own timeout).
      let bound: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        untilEvent(f.app, 'the index without either file', () => dead.every((id) => !indexHas(id))),
        new Promise((_, reject) => {
          bound = setTimeout(() => reject(new Error('the delete was not noticed within 150 s')), 150_000);
        }),
      ]).finally(() => clearTimeout(bound));
      const noticedIn = Date.now() - deletedAt;
      console.log(
        `noticed ${noticedIn} ms after the delete (load: ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`,
      );
      expect(noticedIn).toBeLessThanOrEqual(90_000);
      await page.screenshot({ path: join(SCREENSHOTS, 'deleted-elsewhere-noticed.png'), scale: 'css' });

      await untilEvent(f.app, 'banner.pdf live again under a new link', () => {
        const r = row('banner.pdf');
        return r.state === 'LIVE' && r.remoteId !== null && !dead.includes(r.remoteId);
      });
      const again = row('banner.pdf');
      const file = await fetch(`${c.baseUrl}/api/assets/v1/files/${again.remoteId}`, {
        headers: { authorization: `Bearer ${c.apiKey}` },
      });
      expect(file.status).toBe(200);
      await expect.poll(() => card(leaflets).getByTestId('count-live').textContent()).toBe('3');
      // The paused folder: its file waits to be sent again, not Live.
      expect(row('poster-b.pdf').state).not.toBe('LIVE');
      await expect.poll(() => card(posters).getByTestId('count-live').textContent()).toBe('1');
      await expect.poll(() => card(posters).getByTestId('count-pending').textContent()).toBe('1');
    } finally {
      off();
      clearInterval(timer);
    }
    expect(broken).toEqual([]);
    // 3 while it was live, 2 from when the app knew, 3 again once the new copy was live: never back to
    // 2 after that, never 4. The dip is one pushed state: on a busy machine the new copy can be live
    // before the page renders it (seen once in CI), so "3" alone is the same story, told faster.
    const seen = await page.evaluate(() => (window as unknown as { liveSeen: string[] }).liveSeen);
    expect(seen.join(' ')).toMatch(/^3( 2 3)?$/);
    const shots = await screens(page, 'deleted-elsewhere-sent-again', card(posters));
    console.log(shots.join('\n'));

    // The CLI reads the same rows: LIVE 1 for the paused folder, with one pending, not LIVE 2.
    const status = await runCli(['status', '--json', '--data-dir', f.dataDir]);
    expect(status.code, status.stderr).toBe(0);
    const line = status.lines.find((l) => l.event === 'folder' && l.path === posters) as {
      counts: Record<string, number>;
      pending: number;
    };
    expect(line.counts.LIVE).toBe(1);
    expect(line.pending).toBe(1);
    const text = await runCli(['status', '--data-dir', f.dataDir]);
    const said = text.stdout.split('\n').find((l) => l.startsWith(posters))!;
    console.log(said);
    // In the status model's words (src-shared/domain/status-model.ts), as the folder card says them.
    expect(said).toMatch(/Live 1\b/);
    expect(said).toMatch(/Pending 1\b/);
    expect(said).not.toMatch(/Live 2\b/);
  }, 240_000);

  it("two windows show the same rent shares, and Account's parts add up to the daily rent", async () => {
    // 70 MiB elsewhere in the account: a daily rent of ₹0.01 (at ₹5 a GiB-month), all of it other files'.
    await f.admin('POST', '/files/seed', { client_id: 1, count: 70, bytes: 2 ** 20, prefix: 'elsewhere-' });
    const second = await f.browser.newPage(ZOOMABLE);
    try {
      await second.goto(f.shell.url);
      for (const p of [page, second]) await f.nav(p, 'Account');
      const shares = (p: Page) => p.getByTestId('rent-shares');
      for (const p of [page, second])
        await expect
          .poll(() => shares(p).getByTestId('rent-share-total').textContent())
          .toMatch(/₹0\.01 a day/);
      const text = async (p: Page) => (await shares(p).textContent()) ?? '';
      expect(await text(second)).toBe(await text(page));
      const paise = async (p: Page) =>
        (await shares(p).locator('tr').allTextContents()).map((t) =>
          Math.round(Number(/₹([\d.]+) a day/.exec(t)![1]) * 100),
        );
      const all = await paise(page);
      // The folders' and other files' shares, then the total: the parts add up to it.
      expect(all.slice(0, -1).reduce((a, b) => a + b, 0)).toBe(all.at(-1));
      await expect
        .poll(() => shares(page).getByTestId('rent-share-other').textContent())
        .toMatch(/₹0\.01 a day/);
      const shots = await screens(page, 'rent-shares-account', shares(page));
      console.log(shots.join('\n'));
      for (const p of [page, second]) await f.nav(p, 'Folders');
      const line = (p: Page) =>
        p.getByRole('article', { name: `Folder ${leaflets}` }).getByTestId('folder-rent-share');
      await expect.poll(() => line(second).textContent()).toBe(await line(page).textContent());
    } finally {
      await second.close();
    }
  }, 120_000);
});
