import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { TRAY_STATES } from '../../src-main/electron/tray-state';

const ICONS = join(__dirname, '..', '..', 'build', 'icons');

/** RGBA pixels of an 8-bit RGBA, non-interlaced PNG (what tools/icons/tray-icons.mjs writes). */
function decode(file: string): { size: number; rgba: Buffer } {
  const buf = readFileSync(file);
  let at = 8;
  let size = 0;
  const idat: Buffer[] = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('ascii', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      size = data.readUInt32BE(0);
      expect([data[8], data[9], data[12]], `${file}: 8-bit RGBA, not interlaced`).toEqual([8, 6, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = size * 4;
  const rgba = Buffer.alloc(size * stride);
  for (let y = 0; y < size; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] as number;
      const a = x >= 4 ? (rgba[y * stride + x - 4] as number) : 0;
      const b = y > 0 ? (rgba[(y - 1) * stride + x] as number) : 0;
      const c = x >= 4 && y > 0 ? (rgba[(y - 1) * stride + x - 4] as number) : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter as number] as number;
      rgba[y * stride + x] = (v + add) & 0xff;
    }
  }
  return { size, rgba };
}

/** The glyph: the opaque pixels that are (nearly) white, whatever the disc's colour. */
function glyph(state: string): Set<number> {
  const { size, rgba } = decode(join(ICONS, `tray-${state}.png`));
  const on = new Set<number>();
  for (let i = 0; i < size * size; i++)
    if ((rgba[i * 4 + 3] as number) > 200 && Math.min(...rgba.subarray(i * 4, i * 4 + 3)) > 200) on.add(i);
  return on;
}

describe('the tray icons', () => {
  it('say each state by the shape of their glyph, not by colour alone (WCAG 1.4.1)', () => {
    const glyphs = TRAY_STATES.map((s) => [s, glyph(s)] as const);
    for (const [s, g] of glyphs) expect(g.size, `tray-${s}.png has a glyph`).toBeGreaterThan(40);
    for (const [i, [a, ga]] of glyphs.entries())
      for (const [b, gb] of glyphs.slice(i + 1)) {
        const shared = [...ga].filter((p) => gb.has(p)).length;
        const union = ga.size + gb.size - shared;
        // Two glyphs that share most of their pixels would read as one shape at tray size.
        expect(shared / union, `the glyphs of ${a} and ${b} overlap`).toBeLessThan(0.6);
      }
  });
});
