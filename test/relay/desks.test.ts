import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsService, type LeadsService } from '../../src-main/core/leads/leads-service';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { signingSecretAccount } from '../../src-main/core/leads/signing-keys';
import { encryptedFileStore } from '../../src-main/core/secrets/encrypted-file';
import type { SecretStore } from '../../src-main/core/secrets/keychain';
import type { RunningRelay } from '../../src-main/relay/relay-server';
import { type Db, openDatabase } from '../../src-main/shared-node/sqlite';
import { markSigningText } from '../../src-shared/api/relay';
import type { LeadView, RelayView } from '../../src-shared/contract/leads';
import { testKeychain } from '../kb/helpers';
import { deliver, leadBody, relays, signBody } from './helpers';

const SECRET = 'whsec_shared_by_the_team';
const BOT = 1;

/** Resolves when `test` holds for what has arrived, checked at each arrival. */
function arrivals<T>() {
  const seen: T[] = [];
  const waiting: { test(all: T[]): boolean; resolve(): void }[] = [];
  return {
    seen,
    push(item: T) {
      seen.push(item);
      for (const w of [...waiting]) if (w.test(seen)) waiting.splice(waiting.indexOf(w), 1) && w.resolve();
    },
    until(test: (all: T[]) => boolean): Promise<void> {
      if (test(seen)) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ test, resolve }));
    },
  };
}

interface Desk {
  name: string;
  leads: LeadsService;
  db: Db;
  added: ReturnType<typeof arrivals<LeadView>>;
  changed: ReturnType<typeof arrivals<LeadView>>;
  states: ReturnType<typeof arrivals<RelayView>>;
}

const STORES: [string, (dir: string) => SecretStore & { cleanup?(): void }][] = [
  ['the system keychain', () => testKeychain()],
  [
    'an encrypted file',
    (dir) => {
      const s = encryptedFileStore(join(dir, 'secrets.enc'));
      s.create('desk passphrase, long enough');
      return s;
    },
  ],
];

describe.each(STORES)('desks pulling from one relay, secrets in %s', (_label, makeStore) => {
  const r = relays();
  const dirs: string[] = [];
  const desks: Desk[] = [];
  const stores: (SecretStore & { cleanup?(): void })[] = [];
  let relay: RunningRelay;

  async function openDesk(
    name: string,
    withSecret = true,
    onLeadsArrived?: (n: number) => void,
  ): Promise<Desk> {
    const dir = mkdtempSync(join(tmpdir(), 'desk-'));
    dirs.push(dir);
    const secrets = makeStore(dir);
    stores.push(secrets);
    if (withSecret) secrets.set(signingSecretAccount(BOT), SECRET);
    const db = openDatabase(join(dir, 'app.sqlite'), LEADS_MIGRATIONS);
    const added = arrivals<LeadView>();
    const changed = arrivals<LeadView>();
    const states = arrivals<RelayView>();
    const leads = createLeadsService({
      db,
      secrets,
      botIds: () => [BOT],
      onLead: (l) => added.push(l),
      onChanged: (l) => changed.push(l),
      onRelay: (v) => states.push(v),
      ...(onLeadsArrived ? { onLeadsArrived } : {}),
      receiver: { port: 0 },
      relayWaitS: 20,
    });
    const connected = await leads.connectRelay({ url: relay.url, token: relay.token, deskName: name });
    expect(connected.ok, JSON.stringify(connected)).toBe(true);
    const desk = { name, leads, db, added, changed, states };
    desks.push(desk);
    return desk;
  }

  beforeAll(async () => {
    relay = await r.start({ dataDir: r.dir() });
  });
  afterEach(async () => {
    for (const d of desks.splice(0)) {
      await d.leads.stop();
      d.db.close();
    }
  });
  afterAll(async () => {
    await r.cleanup();
    for (const s of stores) s.cleanup?.();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const post = async (conversationId: number, secret = SECRET, name = 'Ravi') => {
    const body = leadBody(conversationId, 7, name);
    const res = await deliver(relay.webhookUrl, body, { 'x-service-signature': signBody(body, secret) });
    expect(res.status).toBe(200);
  };
  const conversations = (d: Desk) =>
    d.leads
      .list()
      .map((l) => l.conversationId)
      .sort();

  it('every open desk gets every signed lead once, refuses the forged one and names it, and shares "handled"', async () => {
    const base = _label === 'an encrypted file' ? 2000 : 1000;
    const a = await openDesk('Asha');
    const b = await openDesk('Bilal');
    await post(base + 1);
    await post(base + 2);
    await post(base + 3, 'a-forger-does-not-have-the-secret', 'Mallory');
    await post(base + 4);
    for (const d of [a, b]) {
      await d.added.until((all) => all.length === 3);
      await d.states.until((all) => all.some((v) => v.rejected === 1));
      expect(conversations(d)).toEqual([base + 1, base + 2, base + 4]);
      const [rejected] = d.leads.rejected();
      expect(rejected).toMatchObject({
        code: 'SIGNATURE-MISMATCH',
        conversationId: base + 3,
        claimedName: 'Mallory',
      });
    }

    // Asha takes a lead: Bilal's desk shows it taken, by her.
    const lead = a.leads.list().find((l) => l.conversationId === base + 1)!;
    expect(a.leads.setHandled(lead.id, true).ok).toBe(true);
    await b.changed.until((all) => all.some((l) => l.conversationId === base + 1 && l.handledBy === 'Asha'));

    // A stolen read token can post a mark, but not one a desk accepts: it is not signed with the bot's secret.
    const forgedMark = {
      botId: 7,
      conversationId: base + 2,
      handled: true,
      by: 'Thief',
      at: new Date(Date.now() + 60_000).toISOString(),
    };
    const sig = createHmac('sha256', 'guess').update(markSigningText(forgedMark)).digest('hex');
    const planted = await fetch(`${relay.url}/v1/marks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${relay.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ marks: [{ ...forgedMark, sig }] }),
    });
    expect(planted.status).toBe(200);
    // Then a real change made after it: once it arrives, the forged mark before it was read too.
    const four = b.leads.list().find((l) => l.conversationId === base + 4)!;
    b.leads.setHandled(four.id, true);
    await a.changed.until((all) => all.some((l) => l.conversationId === base + 4 && l.handledBy === 'Bilal'));
    for (const d of [a, b])
      expect(d.leads.list().find((l) => l.conversationId === base + 2)!.handledAt).toBeNull();

    // Last writer wins: Bilal puts Asha's lead back to open; both desks agree.
    b.leads.setHandled(b.leads.list().find((l) => l.conversationId === base + 1)!.id, false);
    await a.changed.until((all) => all.some((l) => l.conversationId === base + 1 && l.handledAt === null));

    // A desk that never ran reads everything from the start, with the handled states.
    const c = await openDesk('Chitra');
    await c.added.until((all) => all.length === 3);
    await c.states.until((all) => all.some((v) => v.rejected === 1 && v.connected));
    const onC = c.leads.list();
    expect(onC.map((l) => [l.conversationId, l.handledBy]).sort()).toEqual([
      [base + 1, null],
      [base + 2, null],
      [base + 4, 'Bilal'],
    ]);
  });

  it('a desk catching up announces many leads as one arrival, and lists them all', async () => {
    for (let i = 1; i <= 4; i++) await post(5000 + i);
    const arrived = arrivals<number>();
    const e = await openDesk('Esha', true, (n) => arrived.push(n));
    await arrived.until((all) => all.length === 1);
    expect(arrived.seen).toEqual([e.leads.list().length]);
    expect(e.leads.list().length).toBeGreaterThanOrEqual(4);
    expect(e.added.seen).toEqual([]);
  });

  it('a desk without the secret refuses every delivery, then takes them when the secret is added', async () => {
    const d = await openDesk('Dev', false);
    await d.states.until((all) => all.some((v) => v.connected && v.rejected >= 3));
    expect(d.leads.list()).toHaveLength(0);
    d.leads.signing.set(BOT, SECRET);
    await d.added.until((all) => all.length >= 3);
    // The forged deliveries stay refused; the signed ones are in.
    expect(d.leads.list().every((l) => l.name !== 'Mallory')).toBe(true);
    expect(d.leads.rejected().every((x) => x.claimedName === 'Mallory')).toBe(true);
  });
});
