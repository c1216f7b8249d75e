// A small QR Code encoder (ISO/IEC 18004): byte mode, error correction level M, versions 1-40,
// written for this page so that the table token in a share link never leaves the phone.

import { t } from './i18n.js';
import { html } from './lit-html.js';

// Level M: error correction codewords per block and number of blocks, versions 1..40.
const ECC_PER_BLOCK = [
  10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28,
  28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
const BLOCKS = [
  1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26,
  28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
];
const FORMAT_M = 0; // the two format bits of level M

function rawModules(ver) {
  let result = (16 * ver + 128) * ver + 64;
  if (ver >= 2) {
    const align = Math.floor(ver / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (ver >= 7) result -= 36;
  }
  return result;
}

function dataCodewords(ver) {
  return Math.floor(rawModules(ver) / 8) - ECC_PER_BLOCK[ver - 1] * BLOCKS[ver - 1];
}

// --- Reed-Solomon over GF(256), polynomial 0x11D -----------------------------------------------
function gfMul(x, y) {
  let z = 0;
  for (let i = 7; i >= 0; i -= 1) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i += 1) {
    for (let j = 0; j < degree; j += 1) {
      result[j] = gfMul(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMul(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = divisor.map(() => 0);
  for (const b of data) {
    const factor = b ^ result.shift();
    result.push(0);
    divisor.forEach((coef, i) => {
      result[i] ^= gfMul(coef, factor);
    });
  }
  return result;
}

// --- codewords --------------------------------------------------------------------------------
function encodeData(bytes, ver) {
  const bits = [];
  const put = (value, length) => {
    for (let i = length - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, ver < 10 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  const capacity = dataCodewords(ver) * 8;
  put(0, Math.min(4, capacity - bits.length));
  put(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) put(pad, 8);
  const words = [];
  for (let i = 0; i < bits.length; i += 8) words.push(parseInt(bits.slice(i, i + 8).join(''), 2));
  return words;
}

function interleave(data, ver) {
  const blocks = BLOCKS[ver - 1];
  const eccLen = ECC_PER_BLOCK[ver - 1];
  const raw = Math.floor(rawModules(ver) / 8);
  const shortBlocks = blocks - (raw % blocks);
  const shortLen = Math.floor(raw / blocks);
  const divisor = rsDivisor(eccLen);
  const all = [];
  for (let i = 0, k = 0; i < blocks; i += 1) {
    const dat = data.slice(k, k + shortLen - eccLen + (i < shortBlocks ? 0 : 1));
    k += dat.length;
    const ecc = rsRemainder(dat, divisor);
    if (i < shortBlocks) dat.push(0);
    all.push(dat.concat(ecc));
  }
  const result = [];
  for (let i = 0; i < all[0].length; i += 1) {
    all.forEach((block, j) => {
      if (i !== shortLen - eccLen || j >= shortBlocks) result.push(block[i]);
    });
  }
  return result;
}

// --- the matrix -------------------------------------------------------------------------------
function alignmentPositions(ver) {
  if (ver === 1) return [];
  const count = Math.floor(ver / 7) + 2;
  const step = Math.floor((ver * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const result = [6];
  for (let pos = ver * 4 + 17 - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}

function bch(value, bits, poly, total) {
  let rem = value;
  for (let i = 0; i < total - bits; i += 1)
    rem = (rem << 1) ^ ((rem >>> (total - bits - 1)) * poly);
  return (value << (total - bits)) | rem;
}

class Matrix {
  constructor(ver) {
    this.size = ver * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.fixed = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  set(x, y, dark) {
    this.dark[y][x] = dark;
    this.fixed[y][x] = true;
  }
}

function drawFunctionPatterns(m, ver) {
  const { size } = m;
  for (let i = 0; i < size; i += 1) {
    m.set(6, i, i % 2 === 0);
    m.set(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [
    [3, 3],
    [size - 4, 3],
    [3, size - 4],
  ]) {
    for (let dy = -4; dy <= 4; dy += 1) {
      for (let dx = -4; dx <= 4; dx += 1) {
        const x = cx + dx;
        const y = cy + dy;
        const dist = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) m.set(x, y, dist !== 2 && dist !== 4);
      }
    }
  }
  const align = alignmentPositions(ver);
  const last = align.length - 1;
  align.forEach((cx, i) =>
    align.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      for (let dy = -2; dy <= 2; dy += 1) {
        for (let dx = -2; dx <= 2; dx += 1) {
          m.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
        }
      }
    }),
  );
  drawFormat(m, 0);
  if (ver >= 7) {
    const bits = bch(ver, 6, 0x1f25, 18);
    for (let i = 0; i < 18; i += 1) {
      const dark = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      m.set(a, b, dark);
      m.set(b, a, dark);
    }
  }
}

function drawFormat(m, mask) {
  const bits = bch((FORMAT_M << 3) | mask, 5, 0x537, 15) ^ 0x5412;
  const bit = (i) => ((bits >>> i) & 1) === 1;
  const { size } = m;
  for (let i = 0; i <= 5; i += 1) m.set(8, i, bit(i));
  m.set(8, 7, bit(6));
  m.set(8, 8, bit(7));
  m.set(7, 8, bit(8));
  for (let i = 9; i < 15; i += 1) m.set(14 - i, 8, bit(i));
  for (let i = 0; i < 8; i += 1) m.set(size - 1 - i, 8, bit(i));
  for (let i = 8; i < 15; i += 1) m.set(8, size - 15 + i, bit(i));
  m.set(8, size - 8, true);
}

function placeCodewords(m, words) {
  const { size } = m;
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5;
    const upward = ((right + 1) & 2) === 0;
    for (let vert = 0; vert < size; vert += 1) {
      for (let j = 0; j < 2; j += 1) {
        const x = right - j;
        const y = upward ? size - 1 - vert : vert;
        if (!m.fixed[y][x] && i < words.length * 8) {
          m.dark[y][x] = ((words[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i += 1;
        }
      }
    }
  }
}

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function applyMask(m, mask) {
  for (let y = 0; y < m.size; y += 1) {
    for (let x = 0; x < m.size; x += 1) {
      if (!m.fixed[y][x] && MASKS[mask](x, y)) m.dark[y][x] = !m.dark[y][x];
    }
  }
}

const FINDER_LIKE = ['10111010000', '00001011101'];

function penalty(m) {
  const { size, dark } = m;
  let score = 0;
  const lines = [];
  for (let i = 0; i < size; i += 1) {
    lines.push(dark[i].map((d) => (d ? '1' : '0')).join(''));
    lines.push(dark.map((row) => (row[i] ? '1' : '0')).join(''));
  }
  for (const line of lines) {
    for (const run of line.match(/0{5,}|1{5,}/g) || []) score += run.length - 2;
    const padded = `0000${line}0000`;
    for (const pattern of FINDER_LIKE) {
      for (let at = padded.indexOf(pattern); at >= 0; at = padded.indexOf(pattern, at + 1))
        score += 40;
    }
  }
  let darkCount = 0;
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      if (dark[y][x]) darkCount += 1;
      if (
        x < size - 1 &&
        y < size - 1 &&
        dark[y][x] === dark[y][x + 1] &&
        dark[y][x] === dark[y + 1][x] &&
        dark[y][x] === dark[y + 1][x + 1]
      )
        score += 3;
    }
  }
  const total = size * size;
  score += (Math.ceil(Math.abs(darkCount * 20 - total * 10) / total) - 1) * 10;
  return score;
}

/** The QR symbol of `text` as rows of booleans (true = dark), without the quiet zone.
 *  `mask` (0-7) forces a mask; by default the one with the lowest penalty is used. */
export function encode(text, mask = null) {
  const bytes = Array.from(new TextEncoder().encode(text));
  let ver = 1;
  while (4 + (ver < 10 ? 8 : 16) + bytes.length * 8 > dataCodewords(ver) * 8) {
    ver += 1;
    if (ver > 40) throw new RangeError(t('Text too long for a QR code'));
  }
  const words = interleave(encodeData(bytes, ver), ver);
  const m = new Matrix(ver);
  drawFunctionPatterns(m, ver);
  placeCodewords(m, words);
  const base = m.dark.map((row) => row.slice());
  let best = null;
  for (const candidate of mask === null ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask]) {
    m.dark = base.map((row) => row.slice());
    applyMask(m, candidate);
    drawFormat(m, candidate);
    const score = mask === null ? penalty(m) : 0;
    if (!best || score < best.score) best = { score, rows: m.dark.map((row) => row.slice()) };
  }
  return best.rows;
}

/** An <svg> of the QR symbol of `text`, with a four-module quiet zone (a lit-html template). */
export function qrSvg(text, label) {
  const rows = encode(text);
  const n = rows.length + 8;
  let d = '';
  rows.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) d += `M${x + 4} ${y + 4}h1v1h-1z`;
    }),
  );
  return html`<svg viewBox=${`0 0 ${n} ${n}`} role="img" aria-label=${label || t('QR code')}
    shape-rendering="crispEdges" class="qr"><rect width=${n} height=${n} fill="#fff"></rect><path
    d=${d} fill="#000"></path></svg>`;
}
