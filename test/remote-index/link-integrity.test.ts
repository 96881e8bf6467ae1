import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEntryStore } from '../../src-main/core/kb/entries';
import { createLinkIntegrity } from '../../src-main/core/remote-index/link-integrity';
import { createRemoteIndex } from '../../src-main/core/remote-index/remote-index';
import type { RemoteEvent } from '../../src-main/core/service/file-api-client';
import { closePools } from '../../src-main/core/service/http-pool';
import { makeEngine, until } from '../sync/helpers';
import { countedClient, serverWithClient } from './helpers';

// Knowledge entries citing this account's CDN URLs: a file changed locally (new version, old one
// deleted by the engine) flags the entry and one action fixes it; a bulk delete names the entries
// it would break. Real engine, real reference server, real entry store in the same app database.

let env: Awaited<ReturnType<typeof serverWithClient>>;
let dir: string;
beforeAll(async () => {
  env = await serverWithClient();
  await env.seed(30);
  dir = mkdtempSync(join(tmpdir(), 'links-'));
});
afterAll(async () => {
  await closePools();
  await env.srv.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('knowledge-entry link integrity', () => {
  it('an entry citing a file that changed locally is flagged and fixed in one action; a bulk delete names the entries it breaks', async () => {
    const service = 'links-test';
    let follow: ((e: RemoteEvent) => void) | null = null;
    const c = countedClient(env.srv.baseUrl, env.apiKey, { onRemote: (e) => follow?.(e) });
    for (const [name, size] of [
      ['price-list.pdf', 900],
      ['brochure.pdf', 800],
      ['spec sheet.pdf', 700],
    ] as const)
      writeFileSync(join(dir, name), randomBytes(size));
    let h = makeEngine(c.client, { service });
    const open = () => {
      const remote = createRemoteIndex(h.db);
      follow = remote.follower(service);
      const index = remote.forAccount({ service, clientId: env.clientId });
      const links = createLinkIntegrity({
        index,
        syncedFiles: () =>
          h.engine
            .listFiles({ state: 'LIVE' })
            .map((r) => ({ name: r.name, remoteId: r.remoteId!, remoteUrl: r.remoteUrl! })),
      });
      return { index, links, entries: createEntryStore(h.db) };
    };
    let { index, links, entries } = open();
    try {
      expect((await index.refresh(c.client)).ok).toBe(true);
      await h.engine.start();
      expect((await h.engine.addFolder({ path: dir, bucket: 'docs' })).ok).toBe(true);
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      const urlOf = (name: string) => h.engine.listFiles({ state: 'LIVE' }).find((r) => r.name === name)!;
      const price = urlOf('price-list.pdf');
      const brochure = urlOf('brochure.pdf');
      const spec = urlOf('spec sheet.pdf');

      h.db
        .prepare(
          "INSERT INTO kb_bots (local_id, base_url, name, created_at) VALUES (1, 'http://kb.test', 'Shop', '2026-01-01')",
        )
        .run();
      const make = (title: string, description: string) => {
        const r = entries.create(1, { title, description });
        if (!r.ok) throw new Error(r.error.message);
        return r.value;
      };
      const pricing = make('Prices', `Our price list: ${price.remoteUrl}. Ask for a quote.`);
      make('Catalogue', `Brochure (${brochure.remoteUrl}) and the spec: ${spec.remoteUrl}`);
      make('Specs', `Full spec sheet at ${spec.remoteUrl}\nUpdated yearly.`);
      make('Hours', 'Open 9 to 5; see https://example.com/storage/1/docs/abc-hours.pdf');
      const all = () => entries.list(1);

      expect(links.urlsIn(pricing.description)).toEqual([price.remoteUrl]);
      expect(links.broken(all())).toEqual([]);
      expect(links.check(all()).map((e) => e.title)).toEqual(['Prices', 'Catalogue', 'Specs']);

      // The price list changes on disk: at the next start the engine uploads it and deletes the old copy.
      await h.release();
      writeFileSync(join(dir, 'price-list.pdf'), randomBytes(950));
      h = makeEngine(c.client, { service }, h.appDir);
      ({ index, links, entries } = open());
      c.reset();
      await h.engine.start();
      expect((await h.engine.waitUntilSettled()).allDone).toBe(true);
      await until('the old version deleted', () => c.sent.some((s) => s.method === 'DELETE'));
      const newPrice = urlOf('price-list.pdf');
      expect(newPrice.remoteUrl).not.toBe(price.remoteUrl);

      const broken = links.broken(all());
      expect(broken).toEqual([
        {
          entryId: pricing.id,
          botId: 1,
          title: 'Prices',
          links: [{ url: price.remoteUrl, status: 'REPLACED', fileId: null, currentUrl: newPrice.remoteUrl }],
        },
      ]);
      // One action: the current URL in place of the old, saved through the entry store (to the outbox).
      const fixed = links.fix(entries.get(pricing.id)!);
      expect(fixed).toEqual({
        title: 'Prices',
        description: `Our price list: ${newPrice.remoteUrl}. Ask for a quote.`,
      });
      expect(entries.edit(pricing.id, fixed!).ok).toBe(true);
      expect(entries.get(pricing.id)).toMatchObject({ state: 'pending', pendingOp: 'create' });
      expect(links.broken(all())).toEqual([]);
      expect(links.fix(entries.get(pricing.id)!)).toBeNull();

      // A bulk delete of the brochure and the spec sheet would break two entries: named, with their URLs.
      const warn = links.entriesBrokenBy([brochure.remoteId!, spec.remoteId!], all());
      expect(warn.map((e) => [e.title, e.links.map((l) => l.url)])).toEqual([
        ['Catalogue', [brochure.remoteUrl, spec.remoteUrl]],
        ['Specs', [spec.remoteUrl]],
      ]);
      expect(links.entriesBrokenBy([newPrice.remoteId!], all()).map((e) => e.title)).toEqual(['Prices']);

      // Deleted elsewhere (no newer version): the index learns it (here a 410 on a read) and the entry is GONE.
      const elsewhere = countedClient(env.srv.baseUrl, env.apiKey);
      expect((await elsewhere.client.deleteFile(brochure.remoteId!)).ok).toBe(true);
      expect((await c.client.getFile(brochure.remoteId!)).ok).toBe(false);
      const gone = links.broken(all());
      expect(gone.map((e) => [e.title, e.links.map((l) => l.status)])).toEqual([
        ['Catalogue', ['GONE', 'LIVE']],
      ]);
    } finally {
      await h.close();
    }
  });
});
