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

interface LayerBucket {
  lines: { pos: number[][]; color: number; entity: number; weight: number }[];
  tris: { pos: number[]; color: number; entity: number }[];
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
  const bucket = (name: string) => (buckets[layerOf(name)] ??= { lines: [], tris: [] });

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

  for (const p of flat.polylines) {
    const b = bucket(p.layer);
    if (p.filled && p.points.length >= 6) {
      const coords = [...p.points];
      const holes: number[] = [];
      for (const h of p.holes ?? []) {
        if (h.length < 6) continue;
        holes.push(coords.length / 2);
        coords.push(...h);
      }
      const idx = earcut(coords, holes.length ? holes : undefined, 2);
      const pos = new Array<number>(idx.length * 2);
      for (let i = 0; i < idx.length; i++) {
        pos[i * 2] = coords[idx[i] * 2];
        pos[i * 2 + 1] = coords[idx[i] * 2 + 1];
      }
      b.tris.push({ pos, color: p.color, entity: p.entity });
      grow(p.points);
    } else {
      const pts = p.closed && p.points.length >= 4 ? [...p.points, p.points[0], p.points[1]] : p.points;
      b.lines.push({ pos: [pts], color: p.color, entity: p.entity, weight: Math.max(0, Math.min(255, p.lineweight ?? 0)) });
      grow(pts);
    }
  }

  const texts: SceneMeta['texts'] = [];
  for (const t of flat.texts) {
    texts.push({ text: t.text, x: t.x, y: t.y, height: t.height, rotation: t.rotation, entity: t.entity });
    grow([t.x, t.y]);
    if (!opts.textGeometry) continue;
    const g = opts.textGeometry(t);
    const b = bucket(t.layer);
    if (g.strokes.length) {
      b.lines.push({ pos: g.strokes, color: t.color, entity: t.entity, weight: 0 });
      for (const s of g.strokes) grow(s);
    }
    if (g.triangles.length) {
      b.tris.push({ pos: g.triangles, color: t.color, entity: t.entity });
      grow(g.triangles);
    }
  }

  if (!Number.isFinite(bounds.minX)) Object.assign(bounds, { minX: 0, minY: 0, maxX: 1, maxY: 1 });
  const ox = (bounds.minX + bounds.maxX) / 2, oy = (bounds.minY + bounds.maxY) / 2;

  const lp = new GrowableF32(), lc = new GrowableRgba(), le = new GrowableU32(), lw = new GrowableU8();
  const tp = new GrowableF32(), tc = new GrowableRgba(), te = new GrowableU32();
  const lineRanges: SceneRange[] = [], triRanges: SceneRange[] = [];
  buckets.forEach((b, li) => {
    if (!b) return;
    const l0 = lp.length / 2;
    for (const item of b.lines) {
      for (const pts of item.pos) {
        let segs = 0;
        for (let i = 0; i + 3 < pts.length; i += 2) {
          const x0 = pts[i], y0 = pts[i + 1], x1 = pts[i + 2], y1 = pts[i + 3];
          if (!Number.isFinite(x0 + y0 + x1 + y1)) continue;
          lp.push2(x0 - ox, y0 - oy);
          lp.push2(x1 - ox, y1 - oy);
          le.push(item.entity);
          lw.push(item.weight);
          segs++;
        }
        // a single point (POINT, a dot in a linetype) is drawn as a zero-length segment
        if (pts.length === 2 && Number.isFinite(pts[0] + pts[1])) {
          lp.push2(pts[0] - ox, pts[1] - oy);
          lp.push2(pts[0] - ox, pts[1] - oy);
          le.push(item.entity);
          lw.push(item.weight);
          segs++;
        }
        lc.push(item.color, segs * 2);
      }
    }
    if (lp.length / 2 > l0) lineRanges.push([li, l0, lp.length / 2 - l0]);
    const t0 = tp.length / 2;
    for (const item of b.tris) {
      const n = Math.floor(item.pos.length / 6);
      for (let i = 0; i < n * 6; i += 2) tp.push2(item.pos[i] - ox, item.pos[i + 1] - oy);
      for (let i = 0; i < n; i++) te.push(item.entity);
      tc.push(item.color, n * 3);
    }
    if (tp.length / 2 > t0) triRanges.push([li, t0, tp.length / 2 - t0]);
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
  return { meta, linePositions: lp.done(), lineColors: lc.done(), lineEntities: le.done(), lineWeights: lw.done(), triPositions: tp.done(), triColors: tc.done(), triEntities: te.done() };
}
