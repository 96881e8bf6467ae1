import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsService, type LeadsService } from '../../src-main/core/leads/leads-service';
import { createLeadsStore } from '../../src-main/core/leads/leads-store';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import type { ParsedLead } from '../../src-main/core/leads/payload';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { fitsLeadFilter } from '../../src-shared/contract/leads';
import { removeDir, tempDir, testKeychain } from '../kb/helpers';
import { lead } from './parsed-lead';

// Issue 23: the row's badge says "Wants a person" for a handoff event and for a lead whose visitor
// asked for one (`asked_for_a_person`); the filter of that name selects exactly those rows, and
// "Leads" exactly the rows badged "Lead".
describe('the Leads filter "Wants a person" selects the leads the badge marks', () => {
  const dir = tempDir('leads-person-');
  const keychain = testKeychain();
  let db: Db;
  let leads: LeadsService;
  const names = (f: Parameters<LeadsService['list']>[0]) => leads.list(f).map((l) => l.name);

  beforeAll(() => {
    db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
    const store = createLeadsStore(db);
    const add = (id: number, f: Partial<ParsedLead>) =>
      store.insert(
        1,
        lead(id, f),
        JSON.stringify({ event: f.event ?? 'LEAD-CAPTURED', conversation: { id } }),
      );
    add(1, { name: 'Asha' });
    add(2, { name: 'Meera', askedForAPerson: true });
    add(3, { name: 'Vikram', event: 'HANDOFF-REQUESTED', askedForAPerson: true });
    leads = createLeadsService({ db, secrets: keychain, botIds: () => [1], onLead: () => {} });
  });
  afterAll(() => {
    db.close();
    keychain.cleanup();
    removeDir(dir);
  });

  it('a lead that asked for a person is under "Wants a person", not under "Leads"', () => {
    const badged = leads
      .list()
      .filter((l) => l.askedForAPerson)
      .map((l) => l.name);
    expect(badged).toEqual(['Vikram', 'Meera']);
    expect(names({ event: 'HANDOFF-REQUESTED' })).toEqual(badged);
    expect(names({ event: 'LEAD-CAPTURED' })).toEqual(['Asha']);
    expect(names({ event: 'HANDOFF-REQUESTED', query: 'meera' })).toEqual(['Meera']);
  });

  it('a lead arriving live is shown under the same filter as the list (the view’s rule, fitsLeadFilter)', () => {
    const all = leads.list();
    for (const event of ['HANDOFF-REQUESTED', 'LEAD-CAPTURED'] as const)
      expect(all.filter((l) => fitsLeadFilter(l, event)).map((l) => l.name)).toEqual(names({ event }));
  });

  it('the CSV keeps the service’s event as sent, with the filter applied', () => {
    const rows = leads.exportCsv({ event: 'HANDOFF-REQUESTED' }).csv.trim().split('\r\n').slice(1);
    expect(rows.map((r) => r.split(',').slice(1, 4))).toEqual([
      ['HANDOFF-REQUESTED', 'yes', 'Vikram'],
      ['LEAD-CAPTURED', 'yes', 'Meera'],
    ]);
  });
});
