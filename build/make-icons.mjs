// Generates the app and tray icons as PNGs (no image tool needed): a rounded teal square with a
// cloud-and-arrow mark for the app, and a disc per tray state with a glyph of its own (src-main/electron/tray-state.ts TRAY_STATES). Run: node build/make-icons.mjs
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';

const dir = join(import.meta.dirname, 'icons');

function png(size, pixel) {
  const raw = Buffer.alloc((size * 4 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const [r, g, b, a] = pixel(x / size, y / size);
      const o = y * (size * 4 + 1) + 1 + x * 4;
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = a;
    }
  }
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c;
}

const TEAL = [45, 106, 90];
const inRoundedSquare = (x, y, r) => {
  const cx = Math.min(Math.max(x, r), 1 - r),
    cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const mark = (x, y) => {
  // An upward arrow on a cloud-ish arc, drawn with distance tests.
  const arrowShaft = Math.abs(x - 0.5) < 0.04 && y > 0.42 && y < 0.74;
  const arrowHead =
    y > 0.36 &&
    y < 0.5 &&
    Math.abs(x - 0.5) < (y - 0.36) * 1.1 &&
    Math.abs(x - 0.5) > (y - 0.36) * 1.1 - 0.08;
  const d = Math.hypot(x - 0.5, y - 0.52);
  const cloud = y < 0.62 && d > 0.24 && d < 0.3;
  return arrowShaft || arrowHead || cloud;
};
writeFileSync(
  join(dir, 'icon.png'),
  png(512, (x, y) =>
    inRoundedSquare(x, y, 0.22) ? (mark(x, y) ? [255, 255, 255, 255] : [...TEAL, 255]) : [0, 0, 0, 0],
  ),
);

/** Distance from (x, y) to the segment a-b (tray glyphs are drawn on a 32-pixel grid). */
function toSegment(x, y, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - ax - t * dx, y - ay - t * dy);
}
const stroke = (points, width) => (x, y) =>
  points.slice(1).some((p, i) => toSegment(x, y, points[i], p) <= width / 2);
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const any =
  (...shapes) =>
  (x, y) =>
    shapes.some((s) => s(x, y));
const arrowUp = any(
  rect(14, 10, 18, 25),
  stroke(
    [
      [9.5, 15.5],
      [16, 8.5],
      [22.5, 15.5],
    ],
    4,
  ),
);
const ring = (x, y) => Math.abs(Math.hypot(x - 16, y - 16) - 8) <= 1.75;

/**
 * Each tray state is a disc of its colour with a white glyph of its own shape, so that the state is
 * never said by colour alone (WCAG 1.4.1; test/electron/tray-icons.test.ts): a check (all live), an
 * arrow (sending), two bars (paused), "!" (error), a struck ring (offline: no connection).
 */
const STATES = {
  idle: [
    [45, 106, 90],
    stroke(
      [
        [8.5, 16.5],
        [13.5, 21.5],
        [23.5, 10.5],
      ],
      4,
    ),
  ],
  syncing: [[59, 130, 246], arrowUp],
  paused: [[201, 135, 30], any(rect(10, 9, 14, 23), rect(18, 9, 22, 23))],
  error: [[179, 38, 30], any(rect(14, 6.5, 18, 18.5), rect(14, 21.5, 18, 25.5))],
  offline: [
    [107, 114, 128],
    any(
      ring,
      stroke(
        [
          [10.5, 10.5],
          [21.5, 21.5],
        ],
        3.5,
      ),
    ),
  ],
};
for (const [name, [[r, g, b], glyph]] of Object.entries(STATES)) {
  writeFileSync(
    join(dir, `tray-${name}.png`),
    png(32, (nx, ny) => {
      // A 4x4 supersample of the pixel: its share of the disc (alpha) and of the glyph (white).
      let disc = 0;
      let white = 0;
      for (let sy = 0; sy < 4; sy++)
        for (let sx = 0; sx < 4; sx++) {
          const x = nx * 32 + (sx + 0.5) / 4;
          const y = ny * 32 + (sy + 0.5) / 4;
          if (Math.hypot(x - 16, y - 16) > 15.5) continue;
          disc++;
          if (glyph(x, y)) white++;
        }
      const w = disc ? white / disc : 0;
      const mix = (c) => Math.round(c + (255 - c) * w);
      return [mix(r), mix(g), mix(b), Math.round((disc / 16) * 255)];
    }),
  );
}
console.log(`icons written to ${dir}`);
