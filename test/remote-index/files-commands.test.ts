import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppService, createAppService } from '../../src-main/core';
import type { BulkDeleteJob } from '../../src-shared/contract';
import { adminCall } from '../support/reference-server';
import { memorySecrets } from '../support/secrets';
import { untilEvent } from '../support/wait';

// The Files view's commands on a real app service and its sandbox: bad input is an error value with
// a code, a selection resolves in the core, a second bulk delete waits for the first.

describe('the remote index as contract commands', () => {
  const root = mkdtempSync(join(tmpdir(), 'files-commands-'));
  let app: AppService;

  beforeAll(async () => {
    app = await createAppService({
      dataDir: join(root, 'data'),
      secrets: memorySecrets(),
      env: {},
      log: () => {},
    });
    expect((await app.call('session.useSandbox', {})).ok).toBe(true);
    const c = app.context.session.live!.connection;
    const me = await app.context.session.live!.client.me();
    if (!me.ok) throw new Error(me.error.message);
    const seeded = await adminCall(c.baseUrl, c.adminToken!, 'POST', '/files/seed', {
      client_id: me.value.client.id,
      count: 30,
      buckets: ['one', 'two'],
      bytes: 100,
    });
    expect(seeded.status).toBe(201);
    expect((await app.call('files.index.refresh', {})).ok).toBe(true);
  });

  afterAll(async () => {
    await app?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses bad requests with a code and a message, before any work', async () => {
    expect(await app.dispatch('files.bulkDelete.start', { ids: [] })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await app.dispatch('files.bulkDelete.start', { ids: [-1] })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await app.dispatch('files.export', { selection: { filter: {} }, format: 'xlsx' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await app.dispatch('files.index.query', { sort: 'colour' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(await app.dispatch('files.index.query', { after: 'not a cursor' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' },
    });
    expect(
      await app.call('files.bulkDelete.start', { filter: { search: 'no such name' }, except: [] }),
    ).toMatchObject({ ok: false, error: { code: 'NOTHING-SELECTED' } });
  });

  it('resolves "all matching" in the core, less the rows unticked', async () => {
    const page = await app.call('files.index.query', { bucket: 'one', limit: 2 });
    if (!page.ok) throw new Error(page.error.message);
    const except = page.value.files.map((f) => f.id);
    expect(await app.call('files.selection.summary', { filter: { bucket: 'one' }, except })).toEqual({
      ok: true,
      value: { count: 13, bytes: 1300 },
    });
    const csv = await app.call('files.export', {
      selection: { filter: { bucket: 'one' }, except },
      format: 'csv',
    });
    if (!csv.ok) throw new Error(csv.error.message);
    expect(csv.value.count).toBe(13);
    expect(csv.value.text.trim().split('\r\n')).toHaveLength(14);
  });

  it('runs one bulk delete at a time; a second waits for it', async () => {
    const started = await app.call('files.bulkDelete.start', { filter: { bucket: 'two' }, except: [] });
    if (!started.ok) throw new Error(started.error.message);
    expect(started.value).toMatchObject({ total: 15, bytes: 1500, state: 'running' });
    const again = await app.call('files.bulkDelete.start', { filter: { bucket: 'one' }, except: [] });
    // Either still running (refused) or already finished (accepted): never two at once.
    if (!again.ok) expect(again.error.code).toBe('BULK-DELETE-RUNNING');
    await untilEvent(app, 'the refresh listed', async () => {
      const r = await app.call('files.bulkDelete.progress', {});
      return r.ok && (r.value as BulkDeleteJob | null)?.state === 'finished';
    });
    const two = await app.call('files.index.summary', { bucket: 'two' });
    expect(two.ok && two.value.count).toBe(0);
  });
});
