import sharp from 'sharp';

/**
 * The image metric of the fidelity tests: "ink within k pixels".
 *
 * Both images are reduced to ink (a pixel whose darkest channel is below 200 on a white page, so coloured
 * lines count), cropped to their ink bounding box and scaled to the same size — which fits both to the
 * drawing's extents whatever the margins, page size or resolution. Then
 *   precision = share of our ink pixels within k px of reference ink (we draw nothing that is not there),
 *   recall    = share of reference ink pixels within k px of our ink (we miss nothing that is there),
 *   f1        = their harmonic mean.
 * Distances are chamfer (3-4) distances, close to Euclidean. k = 2 px at ~1000 px absorbs antialiasing and
 * a pixel of framing difference, but not a mirrored, rotated or half-missing drawing.
 */

export interface Rgba {
  data: Uint8Array | Uint8ClampedArray;
  width: number;
  height: number;
}

export interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

export interface Agreement {
  precision: number;
  recall: number;
  f1: number;
}

const INK_BELOW = 200;

/** Any PNG/JPEG as RGBA on white (transparent pixels are paper, as in QCAD's exports). */
export async function decodeImage(bytes: Uint8Array): Promise<Rgba> {
  const { data, info } = await sharp(bytes).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

export function inkMask(img: Rgba): Mask {
  const n = img.width * img.height;
  const data = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = img.data[i * 4], g = img.data[i * 4 + 1], b = img.data[i * 4 + 2];
    data[i] = Math.min(r, g, b) < INK_BELOW ? 1 : 0;
  }
  return { data, width: img.width, height: img.height };
}

export function inkBox(m: Mask): { left: number; top: number; width: number; height: number } | null {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < m.height; y++) {
    for (let x = 0; x < m.width; x++) {
      if (!m.data[y * m.width + x]) continue;
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
  }
  return x1 < 0 ? null : { left: x0, top: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}

/** The image cropped to its ink box and scaled (area-averaged) to width × height, as an ink mask. */
export async function framedInk(img: Rgba, width: number, height: number): Promise<Mask> {
  const box = inkBox(inkMask(img));
  if (!box) return { data: new Uint8Array(width * height), width, height };
  const { data } = await sharp(Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength), { raw: { width: img.width, height: img.height, channels: 4 } })
    .extract(box)
    .resize(width, height, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return inkMask({ data, width, height });
}

/** Chamfer 3-4 distance (in pixels) from every pixel to the nearest ink pixel of `m`, two passes. */
export function distanceToInk(m: Mask): Float32Array {
  const { width: w, height: h } = m;
  const INF = 1e9;
  const d = new Float32Array(w * h);
  for (let i = 0; i < d.length; i++) d[i] = m.data[i] ? 0 : INF;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let v = d[i];
      if (x > 0) v = Math.min(v, d[i - 1] + 3);
      if (y > 0) {
        v = Math.min(v, d[i - w] + 3);
        if (x > 0) v = Math.min(v, d[i - w - 1] + 4);
        if (x < w - 1) v = Math.min(v, d[i - w + 1] + 4);
      }
      d[i] = v;
    }
  }
  for (let y = h - 1; y >= 0; y--) {
    for (let x = w - 1; x >= 0; x--) {
      const i = y * w + x;
      let v = d[i];
      if (x < w - 1) v = Math.min(v, d[i + 1] + 3);
      if (y < h - 1) {
        v = Math.min(v, d[i + w] + 3);
        if (x < w - 1) v = Math.min(v, d[i + w + 1] + 4);
        if (x > 0) v = Math.min(v, d[i + w - 1] + 4);
      }
      d[i] = v;
    }
  }
  for (let i = 0; i < d.length; i++) d[i] /= 3;
  return d;
}

function within(a: Mask, distToB: Float32Array, k: number): number {
  let ink = 0, near = 0;
  for (let i = 0; i < a.data.length; i++) {
    if (!a.data[i]) continue;
    ink++;
    if (distToB[i] <= k) near++;
  }
  return ink ? near / ink : 0;
}

/** Precision, recall and F1 of `ours` against `ref` (same size), ink within `k` px. */
export function inkAgreement(ours: Mask, ref: Mask, k = 2): Agreement {
  if (ours.width !== ref.width || ours.height !== ref.height) throw new Error('masks differ in size');
  const precision = within(ours, distanceToInk(ref), k);
  const recall = within(ref, distanceToInk(ours), k);
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** Both images fitted to their ink boxes at the reference's ink-box size (capped at `maxSide`), then compared. */
export async function compareImages(ours: Rgba, ref: Rgba, opts: { k?: number; maxSide?: number } = {}): Promise<Agreement & { width: number; height: number }> {
  const box = inkBox(inkMask(ref));
  if (!box) throw new Error('the reference has no ink');
  const s = Math.min(1, (opts.maxSide ?? 1024) / Math.max(box.width, box.height));
  const width = Math.max(1, Math.round(box.width * s)), height = Math.max(1, Math.round(box.height * s));
  const a = await framedInk(ours, width, height);
  const b = await framedInk(ref, width, height);
  return { ...inkAgreement(a, b, opts.k ?? 2), width, height };
}
