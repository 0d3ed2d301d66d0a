// Renders the Marketplace icon (extension/media/icon.png, 256×256) from the activity-bar SVG
// (extension/media/tealworks.svg): white strokes on a teal rounded square. A tiny rasterizer for
// the subset that SVG uses (stroked lines from M/L/H/V/h/v/l path commands and circles), 4×4
// supersampled, and a PNG encoder on node:zlib — no native or browser dependency.
//
//   node scripts/gen-icon.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const root = new URL('..', import.meta.url).pathname;
const svg = readFileSync(`${root}extension/media/tealworks.svg`, 'utf8');
const SIZE = 256;
const VIEW = Number(/viewBox="0 0 (\d+)/.exec(svg)[1]);
const stroke = Number(/stroke-width="([\d.]+)"/.exec(svg)[1]);
const PAD = 0.16; // the glyph sits inside the rounded square
const scale = (SIZE * (1 - 2 * PAD)) / VIEW;
const at = (v) => SIZE * PAD + v * scale;

/** Segments [[x1,y1,x2,y2]] in pixels, from the path data's absolute and relative line commands. */
const segments = [];
for (const [, d] of svg.matchAll(/<path d="([^"]+)"/g)) {
  let x = 0,
    y = 0,
    sx = 0,
    sy = 0;
  for (const [, cmd, args] of d.matchAll(/([MLHVmlhvZz])([^MLHVmlhvZz]*)/g)) {
    const n = args.trim()
      ? args
          .trim()
          .split(/[\s,]+/)
          .map(Number)
      : [];
    const line = (nx, ny) => {
      segments.push([at(x), at(y), at(nx), at(ny)]);
      x = nx;
      y = ny;
    };
    switch (cmd) {
      case 'M':
        [x, y] = n;
        [sx, sy] = [x, y];
        for (let i = 2; i < n.length; i += 2) line(n[i], n[i + 1]);
        break;
      case 'm':
        x += n[0];
        y += n[1];
        [sx, sy] = [x, y];
        break;
      case 'L':
        for (let i = 0; i < n.length; i += 2) line(n[i], n[i + 1]);
        break;
      case 'l':
        for (let i = 0; i < n.length; i += 2) line(x + n[i], y + n[i + 1]);
        break;
      case 'H':
        for (const v of n) line(v, y);
        break;
      case 'h':
        for (const v of n) line(x + v, y);
        break;
      case 'V':
        for (const v of n) line(x, v);
        break;
      case 'v':
        for (const v of n) line(x, y + v);
        break;
      case 'Z':
      case 'z':
        line(sx, sy);
        break;
    }
  }
}
const circles = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/g)].map(([, cx, cy, r]) => [
  at(Number(cx)),
  at(Number(cy)),
  Number(r) * scale,
]);
const half = (stroke * scale) / 2;

function distToSegment(px, py, [x1, y1, x2, y2]) {
  const dx = x2 - x1,
    dy = y2 - y1;
  const len = dx * dx + dy * dy;
  const t = len ? Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len)) : 0;
  return Math.hypot(px - (x1 + t * dx), py - (y1 + t * dy));
}
const inStroke = (px, py) =>
  segments.some((s) => distToSegment(px, py, s) <= half) || circles.some(([cx, cy, r]) => Math.abs(Math.hypot(px - cx, py - cy) - r) <= half);
const RADIUS = SIZE * 0.18;
function inTile(px, py) {
  const cx = Math.min(Math.max(px, RADIUS), SIZE - RADIUS);
  const cy = Math.min(Math.max(py, RADIUS), SIZE - RADIUS);
  return Math.hypot(px - cx, py - cy) <= RADIUS;
}

const TEAL = [0x00, 0x80, 0x80];
const raw = Buffer.alloc(SIZE * (SIZE * 4 + 1));
const SS = 4;
for (let y = 0; y < SIZE; y++) {
  raw[y * (SIZE * 4 + 1)] = 0; // filter: none
  for (let x = 0; x < SIZE; x++) {
    let tile = 0,
      ink = 0;
    for (let sy = 0; sy < SS; sy++)
      for (let sx = 0; sx < SS; sx++) {
        const px = x + (sx + 0.5) / SS,
          py = y + (sy + 0.5) / SS;
        if (inTile(px, py)) {
          tile++;
          if (inStroke(px, py)) ink++;
        }
      }
    const a = tile / (SS * SS);
    const w = tile ? ink / tile : 0;
    const o = y * (SIZE * 4 + 1) + 1 + x * 4;
    for (let c = 0; c < 3; c++) raw[o + c] = Math.round(TEAL[c] * (1 - w) + 255 * w);
    raw[o + 3] = Math.round(a * 255);
  }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8;
ihdr[9] = 6; // 8-bit RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(raw, { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(`${root}extension/media/icon.png`, png);
console.log(`extension/media/icon.png: ${SIZE}×${SIZE}, ${png.length} bytes, ${segments.length} strokes, ${circles.length} circles`);
