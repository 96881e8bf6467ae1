import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsService, type LeadsService } from '../../src-main/core/leads/leads-service';
import { createLeadsStore } from '../../src-main/core/leads/leads-store';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import type { ParsedLead } from '../../src-main/core/leads/payload';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { removeDir, tempDir, testKeychain } from '../kb/helpers';
import { lead } from './parsed-lead';

describe('searching the leads inbox, and one lead in full', () => {
  const dir = tempDir('leads-search-');
  const keychain = testKeychain();
  let db: Db;
  let leads: LeadsService;
  const names = (query: string) => leads.list({ query }).map((l) => l.name);

  beforeAll(() => {
    db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
    const store = createLeadsStore(db);
    const add = (id: number, f: Partial<ParsedLead>) => {
      const body = JSON.stringify({ event: 'LEAD-CAPTURED', lead: { name: f.name }, conversation: { id } });
      store.insert(1, lead(id, f), body);
    };
    add(1, { name: 'Asha Rao', email: 'asha.rao@example.com', phone: '+91 98111 22222' });
    add(2, {
      name: 'Vikram Shah',
      email: 'vikram@shop.in',
      phone: '(022) 4000-1234',
      note: 'Bulk order of 100% cotton',
    });
    add(3, { name: 'Meera', email: 'meera_k@example.com', phone: '', note: 'Do you deliver on Sundays?' });
    add(4, { name: 'Zoë Müller', email: 'zoe@example.de', phone: '', note: 'Mon résumé' });
    leads = createLeadsService({ db, secrets: keychain, botIds: () => [1], onLead: () => {} });
  });
  afterAll(() => {
    db.close();
    keychain.cleanup();
    removeDir(dir);
  });

  it('finds by name, email, phone (also by its digits alone) and the visitor’s text, every word', () => {
    expect(names('asha')).toEqual(['Asha Rao']);
    expect(names('SHOP.IN')).toEqual(['Vikram Shah']);
    expect(names('98111 22222')).toEqual(['Asha Rao']);
    expect(names('9811122222')).toEqual(['Asha Rao']);
    expect(names('+91-98111')).toEqual(['Asha Rao']);
    expect(names('40001234')).toEqual(['Vikram Shah']);
    expect(names('sundays')).toEqual(['Meera']);
    expect(names('example.com rao')).toEqual(['Asha Rao']);
    expect(names('nobody')).toEqual([]);
    expect(names('   ')).toHaveLength(4);
  });

  it('finds a word whatever its accents and case (issue 34)', () => {
    expect(names('muller')).toEqual(['Zoë Müller']);
    expect(names('ZOË')).toEqual(['Zoë Müller']);
    expect(names('zoe muller')).toEqual(['Zoë Müller']);
    expect(names('RESUME')).toEqual(['Zoë Müller']);
    expect(names('Résumé')).toEqual(['Zoë Müller']);
  });

  it('takes % and _ as the characters they are, not as wildcards', () => {
    expect(names('100%')).toEqual(['Vikram Shah']);
    expect(names('%')).toEqual(['Vikram Shah']);
    expect(names('meera_k')).toEqual(['Meera']);
    expect(names('_')).toEqual(['Meera']);
  });

  it('the search applies to the CSV export too', () => {
    const csv = leads.exportCsv({ query: 'sundays' }).csv.trim().split('\r\n');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain('Meera');
  });

  it('one lead comes with its whole delivery, indented; an unknown id is a clear error', () => {
    const [asha] = leads.list({ query: 'asha' });
    const r = leads.detail(asha!.id);
    expect(r.ok && r.value.lead.email).toBe('asha.rao@example.com');
    expect(r.ok && r.value.payload).toBe(
      JSON.stringify(
        { event: 'LEAD-CAPTURED', lead: { name: 'Asha Rao' }, conversation: { id: 1 } },
        null,
        2,
      ),
    );
    const missing = leads.detail(999);
    expect(!missing.ok && missing.error).toEqual({
      code: 'LEAD-NOT-FOUND',
      message: 'There is no lead 999.',
    });
  });
});
