import type { Db } from '../../../shared-node/sqlite';
import { statements } from '../../../shared-node/statements';
import type { ClientRow } from './clients';

export type DayOutcome = 'CHARGED' | 'FREE' | 'ARREARS';

export interface DayCharge {
  usageDate: string;
  bytesUsed: number;
  filesCount: number;
  rentPaise: number;
}

/**
 * The wallet, its arrears and the ledger that records every movement. Each operation is one transaction,
 * so a balance never changes without its ledger line.
 *
 * Invariant: a client in arrears has a zero balance (a day takes what the wallet holds and books the rest as
 * arrears; a top-up pays arrears before it adds to the balance).
 */
export function walletStore(db: Db) {
  const prep = statements(db);
  const byId = prep('SELECT * FROM clients WHERE id = ?');
  const setMoney = prep(
    'UPDATE clients SET balance_paise = ?, arrears_paise = ?, arrears_since = ?, status = ? WHERE id = ?',
  );
  const addLine = prep(
    'INSERT INTO ledger (client_id, at, kind, amount_paise, balance_after_paise, arrears_after_paise, usage_date) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const addSnapshot = prep(
    'INSERT OR IGNORE INTO usage_snapshots (client_id, usage_date, bytes_used, files_count, rent_paise, outcome) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const lines = prep('SELECT * FROM ledger WHERE client_id = ? ORDER BY id');

  const save = (c: ClientRow) =>
    setMoney.run(c.balance_paise, c.arrears_paise, c.arrears_since, c.status, c.id);
  const line = (c: ClientRow, at: number, kind: string, amount: number, usageDate: string | null = null) =>
    addLine.run(c.id, at, kind, amount, c.balance_paise, c.arrears_paise, usageDate);

  return {
    /** A positive amount is a top-up (arrears first, the rest to the balance); a negative one a debit, floored at 0. */
    adjust: db.transaction((clientId: number, amountPaise: number, at: number): ClientRow => {
      const c = byId.get(clientId) as ClientRow;
      if (amountPaise > 0) {
        const pays = Math.min(amountPaise, c.arrears_paise);
        c.balance_paise += amountPaise - pays;
        c.arrears_paise -= pays;
        line(c, at, 'TOPUP', amountPaise);
        if (pays > 0 && c.arrears_paise === 0) {
          c.arrears_since = null;
          c.status = 'ACTIVE';
        }
        if (pays > 0) line(c, at, 'ARREARS-PAID', -pays);
      } else {
        const takes = Math.min(-amountPaise, c.balance_paise);
        c.balance_paise -= takes;
        line(c, at, 'DEBIT', -takes);
      }
      save(c);
      return c;
    }),

    /** Charges one day's rent and writes that day's snapshot. */
    chargeDay: db.transaction((clientId: number, day: DayCharge, at: number): DayOutcome => {
      const c = byId.get(clientId) as ClientRow;
      let outcome: DayOutcome;
      if (day.rentPaise === 0) outcome = 'FREE';
      else if (c.balance_paise >= day.rentPaise) {
        c.balance_paise -= day.rentPaise;
        line(c, at, 'RENT', -day.rentPaise, day.usageDate);
        outcome = 'CHARGED';
      } else {
        const paid = c.balance_paise;
        c.balance_paise = 0;
        if (paid > 0) line(c, at, 'RENT', -paid, day.usageDate);
        c.arrears_paise += day.rentPaise - paid;
        c.arrears_since ??= at;
        c.status = 'PAUSED';
        line(c, at, 'ARREARS', day.rentPaise - paid, day.usageDate);
        outcome = 'ARREARS';
      }
      save(c);
      addSnapshot.run(clientId, day.usageDate, day.bytesUsed, day.filesCount, day.rentPaise, outcome);
      return outcome;
    }),

    ledger: (clientId: number) => lines.all(clientId) as Record<string, unknown>[],
  };
}
export type WalletStore = ReturnType<typeof walletStore>;
