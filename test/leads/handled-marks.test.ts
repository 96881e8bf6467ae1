import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createLeadsStore, type HandledMark } from '../../src-main/core/leads/leads-store';
import { LEADS_MIGRATIONS } from '../../src-main/core/leads/migrations';
import { openDatabase } from '../../src-main/shared-node/sqlite';

// "Handled" is shared through the relay, last writer wins: whatever order the marks reach a desk in
// (each desk reads its own cursor; a desk's own change is applied before others'), every desk must end
// in the same state. Marks made in the same millisecond are the case that needs the tie rule.
const lead = {
  event: 'LEAD-CAPTURED',
  remoteBotId: 7,
  botName: 'Bot',
  businessName: 'Biz',
  conversationId: 1,
  name: 'Asha',
  email: '',
  phone: '',
  note: null,
  askedForAPerson: false,
  visitorRef: 'v',
  startedAt: '',
};

const markArb: fc.Arbitrary<HandledMark> = fc.record({
  handled: fc.boolean(),
  by: fc.constantFrom('Asha', 'Bilal', 'Chitra'),
  at: fc.constantFrom('2025-01-01T10:00:00.000Z', '2025-01-01T10:00:00.001Z', '2025-01-01T10:00:01.000Z'),
});

function finalState(marks: HandledMark[]) {
  const db = openDatabase(':memory:', LEADS_MIGRATIONS);
  try {
    const store = createLeadsStore(db);
    const { lead: stored } = store.insert(1, lead, '{}');
    for (const m of marks) store.applyMark(stored!.id, m);
    const l = store.get(stored!.id)!;
    return [l.handledAt, l.handledBy, l.handledChangedAt, l.handledChangedBy];
  } finally {
    db.close();
  }
}

it('ends in the same state whatever order the marks arrive in', () => {
  fc.assert(
    fc.property(
      fc
        .array(markArb, { minLength: 1, maxLength: 6 })
        .chain((marks) =>
          fc.tuple(
            fc.constant(marks),
            fc.shuffledSubarray(marks, { minLength: marks.length, maxLength: marks.length }),
          ),
        ),
      ([marks, shuffled]) => {
        expect(finalState(shuffled)).toEqual(finalState(marks));
      },
    ),
    { seed: 20_260_510, numRuns: 300 },
  );
});

it('the latest change wins, an older one changes nothing', () => {
  expect(
    finalState([
      { handled: true, by: 'Asha', at: '2025-01-01T10:00:01.000Z' },
      { handled: false, by: 'Bilal', at: '2025-01-01T10:00:00.000Z' },
    ]),
  ).toEqual(['2025-01-01T10:00:01.000Z', 'Asha', '2025-01-01T10:00:01.000Z', 'Asha']);
});
