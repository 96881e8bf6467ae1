/**
 * When a desk's "handled" change is dated: a hybrid logical clock per lead, not the desk's wall clock
 * alone. Marks are ordered by their time (last writer wins, leads-store.ts `markIsNewer`), and a desk
 * whose clock ran an hour behind made changes that lost to the very marks it had just seen, so its
 * "open" never reached the others and the desks disagreed (issue 32). The reading is the wall clock,
 * unless the lead's last change (this desk's or another's, as applied here) is at or past it: then
 * 1 ms after that. Every change is then ordered after every change its desk had seen of that lead,
 * whatever the clocks say; between desks that have not seen each other's change, the wall clocks
 * (then the tie rule) decide, as before. The logical part is folded into the milliseconds, so a mark
 * stays an ISO 8601 time on the wire and in the signed text (src-shared/api/relay.ts).
 */
export function nextChangeAt(nowMs: number, lastChangeAt: string | null): string {
  const last = lastChangeAt === null ? Number.NaN : Date.parse(lastChangeAt);
  return new Date(Number.isFinite(last) && last >= nowMs ? last + 1 : nowMs).toISOString();
}
