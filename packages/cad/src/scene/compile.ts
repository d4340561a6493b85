import earcut from 'earcut';
import type { Drawing } from '../model/drawing.ts';
import type { Flattened, TextRun } from '../geometry/flatten.ts';
import { aciToRgb } from '../geometry/aci.ts';
import type { Scene, SceneMeta, SceneRange, SceneRect } from './scene.types.ts';
import { GrowableF32, GrowableRgba, GrowableU32, GrowableU8 } from './growable.ts';

/** Text as geometry in drawing units, from the text engine (SHX strokes, TTF glyph triangles). */
export type TextGeometryFn = (run: TextRun) => { strokes: number[][]; triangles: number[] };

export interface CompileOptions {
  layout: string;
  layouts: string[];
  textGeometry?: TextGeometryFn;
  fonts?: SceneMeta['fonts'];
}

/** One layer's geometry, written straight into typed arrays (no per-entity arrays: drawings have millions of vertices). */
class LayerBucket {
  lp = new GrowableF32();
  lc = new GrowableRgba();
  le = new GrowableU32();
  lw = new GrowableU8();
  tp = new GrowableF32();
  tc = new GrowableRgba();
  te = new GrowableU32();
}

/**
 * Flattened geometry → GPU buffers. Everything is grouped by layer (one range per layer in each buffer)
 * and written into two flat vertex buffers; filled areas are triangulated once here (earcut, holes kept),
 * text comes in as strokes and glyph triangles, so the viewer draws a whole layout in a few calls.
 */
export function compileScene(d: Drawing, flat: Flattened, opts: CompileOptions): Scene {
  const layerIndex = new Map<string, number>();
  const layers: SceneMeta['layers'] = [];
  const layerOf = (name: string) => {
    let i = layerIndex.get(name);
    if (i === undefined) {
      const l = d.layers.find((x) => x.name === name);
      i = layers.length;
      layerIndex.set(name, i);
      layers.push({ name, color: l ? (l.trueColor !== undefined ? l.trueColor & 0xffffff : aciToRgb(Math.abs(l.color) || 7)) : 0xffffff, on: l ? l.on : true, frozen: l?.frozen ?? false, locked: l?.locked ?? false });
    }
    return i;
  };
  // every table layer is listed, drawn or not, so the layer panel matches the drawing
  for (const l of d.layers) layerOf(l.name);
  const buckets: LayerBucket[] = [];
  const bucket = (name: string) => (buckets[layerOf(name)] ??= new LayerBucket());

  const bounds: SceneRect = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  const grow = (pts: ArrayLike<number>) => {
    for (let i = 0; i + 1 < pts.length; i += 2) {
      const x = pts[i], y = pts[i + 1];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (x < bounds.minX) bounds.minX = x;
      if (x > bounds.maxX) bounds.maxX = x;
      if (y < bounds.minY) bounds.minY = y;
      if (y > bounds.maxY) bounds.maxY = y;
    }
  };
  // the origin comes from the bounds, so they are known before any vertex is written
  for (const p of flat.polylines) grow(p.points);
  for (const t of flat.texts) grow([t.x, t.y]);
  if (!Number.isFinite(bounds.minX)) Object.assign(bounds, { minX: 0, minY: 0, maxX: 1, maxY: 1 });
  const ox = (bounds.minX + bounds.maxX) / 2, oy = (bounds.minY + bounds.maxY) / 2;

  const addLines = (b: LayerBucket, pts: ArrayLike<number>, closed: boolean, color: number, entity: number, weight: number) => {
    let segs = 0;
    const n = pts.length >> 1;
    const last = closed && n > 2 ? n : n - 1;
    for (let i = 0; i < last; i++) {
      const j = (i + 1) % n;
      const x0 = pts[i * 2], y0 = pts[i * 2 + 1], x1 = pts[j * 2], y1 = pts[j * 2 + 1];
      if (!Number.isFinite(x0 + y0 + x1 + y1)) continue;
      b.lp.push2(x0 - ox, y0 - oy);
      b.lp.push2(x1 - ox, y1 - oy);
      b.le.push(entity);
      b.lw.push(weight);
      segs++;
    }
    // a single point (POINT, a dot in a linetype) is drawn as a zero-length segment
    if (n === 1 && Number.isFinite(pts[0] + pts[1])) {
      b.lp.push2(pts[0] - ox, pts[1] - oy);
      b.lp.push2(pts[0] - ox, pts[1] - oy);
      b.le.push(entity);
      b.lw.push(weight);
      segs++;
    }
    b.lc.push(color, segs * 2);
  };
  const addTriangles = (b: LayerBucket, coords: ArrayLike<number>, idx: ArrayLike<number> | null, color: number, entity: number) => {
    const n = idx ? Math.floor(idx.length / 3) : Math.floor(coords.length / 6);
    for (let i = 0; i < n * 3; i++) {
      const k = idx ? idx[i] : i;
      b.tp.push2(coords[k * 2] - ox, coords[k * 2 + 1] - oy);
    }
    for (let i = 0; i < n; i++) b.te.push(entity);
    b.tc.push(color, n * 3);
  };

  for (const p of flat.polylines) {
    const b = bucket(p.layer);
    if (p.filled && p.points.length >= 6) {
      let coords: number[] = p.points;
      const holes: number[] = [];
      if (p.holes?.length) {
        coords = p.points.slice();
        for (const h of p.holes) {
          if (h.length < 6) continue;
          holes.push(coords.length / 2);
          for (const v of h) coords.push(v);
        }
      }
      // three or four corners (SOLID, TRACE) need no triangulator
      const idx = coords.length === 6 && !holes.length ? [0, 1, 2] : coords.length === 8 && !holes.length ? [0, 1, 2, 0, 2, 3] : earcut(coords, holes.length ? holes : undefined, 2);
      addTriangles(b, coords, idx, p.color, p.entity);
    } else {
      addLines(b, p.points, p.closed && p.points.length >= 4, p.color, p.entity, Math.max(0, Math.min(255, p.lineweight ?? 0)));
    }
  }

  const texts: SceneMeta['texts'] = [];
  for (const t of flat.texts) {
    texts.push({ text: t.text, x: t.x, y: t.y, height: t.height, rotation: t.rotation, entity: t.entity });
    if (!opts.textGeometry) continue;
    const g = opts.textGeometry(t);
    const b = bucket(t.layer);
    for (const s of g.strokes) addLines(b, s, false, t.color, t.entity, 0);
    if (g.triangles.length) addTriangles(b, g.triangles, null, t.color, t.entity);
  }

  // one buffer per kind, layers in order: each layer is one contiguous range
  let lines = 0, tris = 0;
  for (const b of buckets) if (b) { lines += b.lp.length; tris += b.tp.length; }
  const linePositions = new Float32Array(lines), lineColors = new Uint8Array(lines * 2), lineEntities = new Uint32Array(lines / 4), lineWeights = new Uint8Array(lines / 4);
  const triPositions = new Float32Array(tris), triColors = new Uint8Array(tris * 2), triEntities = new Uint32Array(tris / 6);
  const lineRanges: SceneRange[] = [], triRanges: SceneRange[] = [];
  let lv = 0, tv = 0;
  buckets.forEach((b, li) => {
    if (!b) return;
    if (b.lp.length) {
      linePositions.set(b.lp.data.subarray(0, b.lp.length), lv * 2);
      lineColors.set(b.lc.data.subarray(0, b.lc.length), lv * 4);
      lineEntities.set(b.le.data.subarray(0, b.le.length), lv / 2);
      lineWeights.set(b.lw.data.subarray(0, b.lw.length), lv / 2);
      lineRanges.push([li, lv, b.lp.length / 2]);
      lv += b.lp.length / 2;
    }
    if (b.tp.length) {
      triPositions.set(b.tp.data.subarray(0, b.tp.length), tv * 2);
      triColors.set(b.tc.data.subarray(0, b.tc.length), tv * 4);
      triEntities.set(b.te.data.subarray(0, b.te.length), tv / 3);
      triRanges.push([li, tv, b.tp.length / 2]);
      tv += b.tp.length / 2;
    }
  });

  const meta: SceneMeta = {
    format: 1,
    layout: opts.layout,
    layouts: opts.layouts,
    units: d.header.units,
    bounds,
    origin: [ox, oy],
    layers,
    lineRanges,
    triRanges,
    entities: flat.entities,
    texts,
    notDrawn: flat.skipped,
    fonts: opts.fonts,
  };
  return { meta, linePositions, lineColors, lineEntities, lineWeights, triPositions, triColors, triEntities };
}
