// A thumbnail of a model: its triangles drawn flat-shaded from the front-right-top (isometric, orthographic, the
// model's up axis up) through a z-buffer at twice the size, averaged down, written as an RGBA PNG with a transparent
// background. Our own rasterizer: no canvas or GPU, and a million sub-pixel triangles cost about a pixel each.
import { type Document, getBounds, type Node as GltfNode } from '@gltf-transform/core';
import { crc32, deflateSync } from 'node:zlib';

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const unit = (a: V3): V3 => {
  const l = Math.hypot(...a) || 1;
  return [a[0] / l, a[1] / l, a[2] / l];
};
const transform = (m: ArrayLike<number>, p: ArrayLike<number>): V3 => [
  m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12],
  m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13],
  m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14],
];

/** the PNG of RGBA pixels (filter 0 on every row) */
function png(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'latin1');
    out.set(data, 8);
    out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (1 + width * 4) + 1);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

const toSrgb = (c: number) => Math.round(255 * (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055));

export function renderThumbnail(doc: Document, upAxis: 'Y' | 'Z', size = 256): Uint8Array {
  const up: V3 = upAxis === 'Z' ? [0, 0, 1] : [0, 1, 0];
  // from the front-right-top: +x, −y (Z up) or +z (Y up), up
  const toEye = unit(upAxis === 'Z' ? [1, -1, 1] : [1, 1, 1]);
  const right = unit(cross(up, toEye));
  const screenUp = cross(toEye, right);
  const light = unit([toEye[0] + 0.3 * right[0] + 0.5 * up[0], toEye[1] + 0.3 * right[1] + 0.5 * up[1], toEye[2] + 0.3 * right[2] + 0.5 * up[2]]);

  const s = size * 2;
  const rgba = new Uint8Array(s * s * 4);
  const depth = new Float32Array(s * s).fill(-Infinity);
  const scene = doc.getRoot().getDefaultScene() ?? doc.getRoot().listScenes()[0];
  if (!scene) return png(size, size, new Uint8Array(size * size * 4));
  // the view fitted to the model's bounds (its box's corners in view space), nothing kept per triangle
  const box = getBounds(scene);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < 8; i++) {
    const c: V3 = [i & 1 ? box.max[0] : box.min[0], i & 2 ? box.max[1] : box.min[1], i & 4 ? box.max[2] : box.min[2]];
    minX = Math.min(minX, dot(c, right));
    maxX = Math.max(maxX, dot(c, right));
    minY = Math.min(minY, dot(c, screenUp));
    maxY = Math.max(maxY, dot(c, screenUp));
  }
  const scale = (s * 0.94) / Math.max(maxX - minX, maxY - minY, 1e-12);
  const ox = s / 2 - ((minX + maxX) / 2) * scale;
  const oy = s / 2 + ((minY + maxY) / 2) * scale;

  /** one triangle in world space, flat-shaded by its normal, into the z-buffer */
  const draw = (v: V3[], base: number[]) => {
    const normal = unit(cross(sub(v[1], v[0]), sub(v[2], v[0])));
    const shade = 0.3 + 0.7 * Math.abs(dot(normal, light));
    const r = toSrgb(base[0] * shade), g = toSrgb(base[1] * shade), b = toSrgb(base[2] * shade);
    const x0 = ox + dot(v[0], right) * scale, y0 = oy - dot(v[0], screenUp) * scale, z0 = dot(v[0], toEye);
    const x1 = ox + dot(v[1], right) * scale, y1 = oy - dot(v[1], screenUp) * scale, z1 = dot(v[1], toEye);
    const x2 = ox + dot(v[2], right) * scale, y2 = oy - dot(v[2], screenUp) * scale, z2 = dot(v[2], toEye);
    const area = (x1 - x0) * (y2 - y0) - (x2 - x0) * (y1 - y0);
    if (area === 0) return;
    const xa = Math.max(0, Math.floor(Math.min(x0, x1, x2))), xb = Math.min(s - 1, Math.ceil(Math.max(x0, x1, x2)));
    const ya = Math.max(0, Math.floor(Math.min(y0, y1, y2))), yb = Math.min(s - 1, Math.ceil(Math.max(y0, y1, y2)));
    for (let y = ya; y <= yb; y++) {
      for (let x = xa; x <= xb; x++) {
        const px = x + 0.5, py = y + 0.5;
        const w0 = ((x1 - px) * (y2 - py) - (x2 - px) * (y1 - py)) / area;
        const w1 = ((x2 - px) * (y0 - py) - (x0 - px) * (y2 - py)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = w0 * z0 + w1 * z1 + w2 * z2;
        const at = y * s + x;
        if (z <= depth[at]) continue;
        depth[at] = z;
        rgba[at * 4] = r;
        rgba[at * 4 + 1] = g;
        rgba[at * 4 + 2] = b;
        rgba[at * 4 + 3] = 255;
      }
    }
  };
  const visit = (n: GltfNode) => {
    const m = n.getWorldMatrix();
    for (const p of n.getMesh()?.listPrimitives() ?? []) {
      const pos = p.getAttribute('POSITION');
      if (!pos || p.getMode() !== 4) continue;
      const base = p.getMaterial()?.getBaseColorFactor() ?? [0.8, 0.8, 0.8, 1];
      const index = p.getIndices();
      const count = index ? index.getCount() : pos.getCount();
      const v: V3[] = [];
      const el: number[] = [];
      for (let i = 0; i + 2 < count; i += 3) {
        for (let k = 0; k < 3; k++) v[k] = transform(m, pos.getElement(index ? index.getScalar(i + k) : i + k, el));
        draw(v, base);
      }
    }
    for (const c of n.listChildren()) visit(c);
  };
  for (const c of scene.listChildren()) visit(c);

  // 2 × 2 → 1: colour averaged over the covered samples, coverage as alpha
  const out = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let r = 0, g = 0, b = 0, a = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
        const at = ((y * 2 + dy) * s + x * 2 + dx) * 4;
        if (!rgba[at + 3]) continue;
        r += rgba[at];
        g += rgba[at + 1];
        b += rgba[at + 2];
        a++;
      }
      if (a) out.set([Math.round(r / a), Math.round(g / a), Math.round(b / a), Math.round((255 * a) / 4)], (y * size + x) * 4);
    }
  }
  return png(size, size, out);
}
