import type { OfficeStatus } from '../contract/office';

/**
 * The one sentence the Folders header, the tray and `assets-sync status` say about the office:
 * "Sharing this address with 3 other desks: about 30 requests a minute for this desk".
 */
export function officeSentence(s: OfficeStatus): string {
  const rate = Math.max(0, Math.round(s.sharePerMinute));
  const perMinute = `about ${rate} request${rate === 1 ? '' : 's'} a minute for this desk`;
  const paused =
    s.pausedForMs > 0
      ? `; the service refused a request, sending paused for ${Math.ceil(s.pausedForMs / 1000)} s`
      : '';
  if (s.mode === 'off') return `Not in an office (left in Settings): ${perMinute}${paused}`;
  if (s.mode === 'alone') return `No other desk found at this address: ${perMinute}${paused}`;
  const others = s.desks - 1;
  return `Sharing this address with ${others} other desk${others === 1 ? '' : 's'}: ${perMinute}${paused}`;
}

/**
 * Who can take part: "Keyed office: only desks given its join code take part" or, with no key, that any
 * device on the network can (docs/office.md, threat model). Said in Settings and by `assets-sync status`.
 */
export function officeTrustSentence(s: OfficeStatus): string {
  if (s.mode === 'off') return '';
  return s.keyed
    ? 'Keyed office: only desks given its join code take part'
    : 'Open office: any device on this network can take part (give every desk a join code to close it)';
}

/** "12 office messages refused (latest from 192.168.1.7, 10: bad-mac)", or '' when none was. */
export function officeRefusedSentence(s: OfficeStatus): string {
  const r = s.refused;
  if (r.total === 0) return '';
  const from = r.from
    .slice(0, 3)
    .map((f) => `${f.address}: ${f.count} (${f.why})`)
    .join(', ');
  return `${r.total} office message${r.total === 1 ? '' : 's'} refused, changing nothing (from ${from})`;
}
