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
