import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createLeadsService, type LeadsService } from '../../src-main/core/leads/leads-service';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { commands } from '../../src-shared/contract';

// issue 22: `leads.configureReceiver` with host 0.0.0.0 opened the receiver to the network on a click.
let dir: string;
let db: Db;
let leads: LeadsService;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'leads-host-'));
  db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
  leads = createLeadsService({
    db,
    secrets: { get: () => null, set: () => {}, delete: () => false },
    botIds: () => [],
    onLead: () => {},
  });
  const started = await leads.start();
  expect(started.ok).toBe(true);
});
afterEach(async () => {
  await leads.stop();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

it('refuses a host open to the network without an explicit confirmation, and changes nothing', async () => {
  const before = leads.receiver();
  for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
    const r = await leads.configure({ host });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('LEADS-HOST-NEEDS-CONFIRMATION');
      expect(r.error.message).toContain(host);
    }
  }
  expect(leads.receiver()).toEqual(before);
  expect(leads.receiver().host).toBe('127.0.0.1');
});

it('moves within loopback without a confirmation, and the contract carries the confirmation', async () => {
  const r = await leads.configure({ host: '127.0.0.1', path: '/hooks/other' });
  expect(r.ok && r.value.path).toBe('/hooks/other');
  const parsed = commands['leads.configureReceiver'].request.safeParse({
    host: '0.0.0.0',
    exposeToNetwork: true,
  });
  expect(parsed.success).toBe(true);
  expect(commands['leads.configureReceiver'].request.safeParse({ exposeToNetwork: false }).success).toBe(
    false,
  );
});
