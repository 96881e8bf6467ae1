// Generates the app and tray icons as PNGs (no image tool needed): a rounded teal square with a
// cloud-and-arrow mark for the app, and a dot per tray state (src-main/electron/tray-state.ts TRAY_STATES). Run: node build/make-icons.mjs
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

const STATES = {
  idle: [45, 106, 90],
  syncing: [59, 130, 246],
  paused: [201, 135, 30],
  error: [179, 38, 30],
  offline: [107, 114, 128],
};
for (const [name, rgb] of Object.entries(STATES)) {
  writeFileSync(
    join(dir, `tray-${name}.png`),
    png(32, (x, y) => {
      const d = Math.hypot(x - 0.5, y - 0.5);
      if (d > 0.44) return [0, 0, 0, 0];
      return mark(x, y) && d < 0.4 ? [255, 255, 255, 255] : [...rgb, 255];
    }),
  );
}
console.log(`icons written to ${dir}`);
