/**
 * Byte sizes in IEC binary units, labelled as such (KiB, MiB, GiB, TiB). The service counts in powers
 * of 1024: its "200 MB" ceiling is 209,715,200 bytes and it bills a "GB" as 2^30 bytes
 * (docs/reference-server.md), so binary units are the ones that agree with its numbers; the labels say
 * KiB/MiB/GiB so that nobody reads them as powers of 1000 (docs/desktop-app.md, "Units").
 */
export const MIB = 1024 * 1024;

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** "512 B", "1.5 KiB", "200 MiB": one decimal under 10 of a unit, none above. */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const shown = u === 0 ? v : Number(v.toFixed(Math.abs(v) < 10 ? 1 : 0));
  return `${shown} ${UNITS[u]}`;
}
