import type { Drawing, Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';
import { flattenEntities, flattenModelSpace, type Flattened, type FlattenOptions, type Polyline2 } from './flatten.ts';
import { primitivesBound, storedContent } from './content-budget.ts';
import { clipPolygonToRect, clipPolylineToRect, type Rect } from './viewport-clip.ts';
import { clipCurveToRect, transformCurve } from './curve.ts';
import { viewportImages } from './image-refs.ts';

export const MODEL = 'Model';

/** Layout names in tab order, Model first; R12 files with paper-space entities get one unnamed paper layout. */
export function layoutNames(d: Drawing): string[] {
  const paper = [...d.layouts].filter((l) => l.name.toLowerCase() !== 'model').sort((a, b) => a.tabOrder - b.tabOrder).map((l) => l.name);
  if (!paper.length && d.entities.some((e) => e.paperSpace)) paper.push('Layout1');
  return [MODEL, ...paper];
}

/**
 * The layout to show when none is asked for: Model, unless model space holds nothing and a paper layout does
 * (drawings made on the sheet itself, as R11/R12 drawings saved in paper space often are: the R11 DWG sample).
 */
export function defaultLayout(d: Drawing): string {
  if (d.entities.some((e) => !e.paperSpace)) return MODEL;
  return layoutNames(d).slice(1).find((n) => layoutEntities(d, n)?.length) ?? MODEL;
}

/**
 * The entities a paper layout draws. A layout points at its block record (code 330 of LAYOUT); entities
 * carry the same handle as their owner, the active layout's in ENTITIES (code 67 = 1), the others' in
 * their `*Paper_Space<n>` block. Files without owners (R12) have one paper space: the code-67 entities.
 */
export function layoutEntities(d: Drawing, name: string): Entity[] | null {
  const names = layoutNames(d);
  const index = names.findIndex((n) => n.toLowerCase() === name.toLowerCase());
  if (index <= 0) return null;
  const layout = d.layouts.find((l) => l.name.toLowerCase() === name.toLowerCase());
  const record = layout?.blockRecord;
  if (record) {
    const active = d.entities.filter((e) => e.paperSpace && e.owner === record);
    if (active.length) return active;
    const block = d.blocks.find((b) => b.entities.length && b.entities[0].owner === record);
    if (block) return block.entities;
    if (d.entities.some((e) => e.paperSpace && e.owner !== undefined)) return [];
  }
  // no owner information: the first paper layout is the active one (*Paper_Space)
  return index === 1 ? d.entities.filter((e) => e.paperSpace) : (d.blocks.find((b) => b.name.toLowerCase() === `*paper_space${index - 2}`)?.entities ?? []);
}

interface Viewport {
  entity: Entity;
  clip: Rect;
  /** model → paper: scale about the view centre, then to the viewport centre */
  scale: number;
  viewX: number;
  viewY: number;
  cx: number;
  cy: number;
  twist: number;
  /** handles (upper case) of the layers frozen in this viewport (VP freeze, 341) */
  frozen: string[];
}

/**
 * The model view of an R12 viewport (R12 DXF, R10–R12 DWG): no 12/22/45 codes, but "ACAD" xdata that starts
 * 1000 MVIEW, 1002 {, 1070 16, then 1010 view target, 1010 view direction, 1040 twist, 1040 view height,
 * 1040 view centre x, 1040 view centre y, … (DXF reference, VIEWPORT xdata). The twist is taken as radians,
 * the unit the DWG stores, on the assumption that xdata keeps it as stored (no sample has a twisted R12 view).
 */
function mviewOf(e: Entity): { height: number; x: number; y: number; twist: number } | null {
  const p = e.pairs;
  const at = p.findIndex(([c, v]) => c === 1000 && v === 'MVIEW');
  if (at < 0) return null;
  const points: number[] = [];
  const reals: number[] = [];
  for (let i = at + 1; i < p.length && p[i][0] !== 1001; i++) {
    if (p[i][0] === 1010) points.push(Number(p[i][1]), p[i + 1]?.[0] === 1020 ? Number(p[i + 1][1]) : 0);
    else if (p[i][0] === 1040) reals.push(Number(p[i][1]));
  }
  if (points.length < 4 || reals.length < 4) return null;
  const [twist, height, x, y] = reals;
  return { height, x: x + points[0], y: y + points[1], twist };
}

/**
 * The viewports of a layout that show model space. The layout's own sheet view is not one of them: id 1 (69), or,
 * where no id is kept (LibreDWG gives 0 in layouts other than the active one), the layout's first VIEWPORT. A
 * viewport is off when its status flags (90) have bit 0x20000; status 68 = 0 says off only where there are no flags
 * (R12): AutoCAD writes 0 for every viewport of a layout that is not the current one, and those plot all the same.
 */
function viewportsOf(entities: Entity[]): Viewport[] {
  const num = (e: Entity, c: number, def = 0) => {
    const v = pairValue(e, c);
    return v === undefined ? def : Number(v);
  };
  const all = entities.filter((e) => e.type === 'VIEWPORT');
  const sheet = all.every((e) => !(num(e, 69) > 0)) ? all[0] : undefined;
  const out: Viewport[] = [];
  for (const e of all) {
    if (num(e, 69) === 1 || e === sheet) continue;
    const flags = pairValue(e, 90);
    if (flags !== undefined ? (Number(flags) & 0x20000) !== 0 : pairValue(e, 68) !== undefined && num(e, 68) === 0) continue;
    const w = num(e, 40), h = num(e, 41);
    const cx = num(e, 10), cy = num(e, 20);
    // the view centre (12/22) is relative to the view target (17/27) in plan views; R12 keeps the view in xdata
    const view = pairValue(e, 45) !== undefined ? { height: num(e, 45), x: num(e, 12) + num(e, 17), y: num(e, 22) + num(e, 27), twist: (num(e, 51) * Math.PI) / 180 } : mviewOf(e);
    if (!(w > 0 && h > 0 && view && view.height > 0)) continue;
    const frozen: string[] = [];
    for (const [code, v] of e.pairs) if (code === 341) frozen.push(String(v).toUpperCase());
    out.push({ entity: e, clip: { minX: cx - w / 2, minY: cy - h / 2, maxX: cx + w / 2, maxY: cy + h / 2 }, scale: h / view.height, viewX: view.x, viewY: view.y, cx, cy, twist: view.twist, frozen });
  }
  return out;
}

/** Output vertices, curves and text characters of a flattening (what content-budget.ts's MAX_PRIMITIVES counts). */
function primitivesOf(f: Flattened): number {
  let n = (f.curves?.length ?? 0);
  for (const p of f.polylines) n += p.points.length >> 1;
  for (const t of f.texts) n += t.text.length;
  return n;
}

/** The border of a viewport as a closed LWPOLYLINE with the VIEWPORT's own properties (handle, layer, colour …). */
function frameOf(vp: Viewport): Entity {
  const { minX, minY, maxX, maxY } = vp.clip;
  const e = vp.entity;
  const pairs: [number, string | number][] = [[8, e.layer], [90, 4], [70, 1]];
  for (const [x, y] of [[minX, minY], [maxX, minY], [maxX, maxY], [minX, maxY]]) pairs.push([10, x], [20, y]);
  return { type: 'LWPOLYLINE', handle: e.handle, layer: e.layer, color: e.color, trueColor: e.trueColor, linetype: e.linetype, lineweight: e.lineweight, paperSpace: true, owner: e.owner, pairs };
}

/** Layers a plot leaves out: those whose plot flag is off (290 = 0), and Defpoints; none: undefined. */
export function unplottedLayers(d: Drawing): Set<string> | undefined {
  const names = d.layers.filter((l) => l.plot === false || l.name.toLowerCase() === 'defpoints').map((l) => l.name);
  return names.length ? new Set(names) : undefined;
}

/** A viewport's border is plotted unless its layer is off, frozen, not plotted (290 = 0) or Defpoints. */
function plotsFrame(d: Drawing, vp: Viewport, hidden?: Set<string>): boolean {
  const name = vp.entity.layer;
  if (name.toLowerCase() === 'defpoints' || hidden?.has(name)) return false;
  const l = d.layers.find((x) => x.name === name);
  return !l || (l.on && !l.frozen && l.plot !== false);
}

/**
 * Any layout flattened: Model as is; a paper layout as its own entities (title block, notes) plus, for each
 * viewport, model space moved and scaled into the viewport and clipped to its rectangle. Model space is
 * flattened once and reused by every viewport.
 */
export function flattenLayout(d: Drawing, name: string, opts: FlattenOptions = {}): Flattened | null {
  if (name.toLowerCase() === MODEL.toLowerCase()) return flattenModelSpace(d, opts);
  const entities = layoutEntities(d, name);
  if (!entities) return null;
  const paper = flattenEntities(d, entities, { ...opts, modelSpace: undefined });
  const viewports = viewportsOf(entities);
  if (!viewports.length) return paper;
  // model space seen through viewports is moved and clipped as polylines: no block instances there, no segment lists;
  // flattened once per set of layers frozen in viewports (most drawings: one), each set's entities numbered after the last
  const layerByHandle = new Map(d.layers.flatMap((l) => (l.handle ? [[l.handle.toUpperCase(), l.name] as const] : [])));
  const models = new Map<string, { model: Flattened; base: number; size: number }>();
  const modelFor = (vp: Viewport) => {
    const names = vp.frozen.flatMap((h) => (layerByHandle.has(h) ? [layerByHandle.get(h)!] : [])).sort();
    const key = names.join('\n');
    let m = models.get(key);
    if (!m) {
      const hiddenLayers = names.length ? new Set([...(opts.hiddenLayers ?? []), ...names]) : opts.hiddenLayers;
      // the caller's model space when it is what this would make: the same options, nothing frozen here
      const same = !names.length && !opts.blockInstances && !opts.segmentLists;
      const model = (same && opts.modelSpace) || flattenModelSpace(d, { ...opts, hiddenLayers, blockInstances: false, segmentLists: false, modelSpace: undefined });
      m = { model, base: paper.entities.length, size: primitivesOf(model) };
      paper.entities.push(...model.entities);
      for (const k of Object.keys(model.skipped)) paper.skipped[k] = (paper.skipped[k] ?? 0) + model.skipped[k];
      models.set(key, m);
    }
    return m;
  };
  // every viewport moves and clips all of model space: a sheet of hundreds of viewports multiplied the model's
  // geometry (and the work) by their number. Past the output bound the further viewports are counted, not drawn
  const limit = opts.maxPrimitives ?? primitivesBound(storedContent(d).pairs);
  let made = primitivesOf(paper);
  for (const vp of viewports) {
    opts.deadline?.check('viewports');
    const { model, base, size } = modelFor(vp);
    if (made + size > limit) {
      paper.skipped['VIEWPORT:limit'] = (paper.skipped['VIEWPORT:limit'] ?? 0) + 1;
      continue;
    }
    made += size;
    // the border, where the plot draws one, in the viewport's own colour and layer, as a paper entity of its own
    if (plotsFrame(d, vp, opts.hiddenLayers)) {
      const frame = flattenEntities(d, [frameOf(vp)], { ...opts, blockInstances: false, segmentLists: false });
      const at = paper.entities.length;
      paper.entities.push(...frame.entities);
      for (const p of frame.polylines) paper.polylines.push({ ...p, entity: p.entity + at });
    }
    const cos = Math.cos(vp.twist) * vp.scale, sin = Math.sin(vp.twist) * vp.scale;
    const tx = (x: number, y: number): [number, number] => {
      const dx = x - vp.viewX, dy = y - vp.viewY;
      return [vp.cx + dx * cos - dy * sin, vp.cy + dx * sin + dy * cos];
    };
    // where each model polyline lands among the paper's (clipping may cut one into several, or into none): pictures,
    // wipeouts, curves and texts keep their draw position between them (`ImageFrame.order`, `TextRun.at`)
    const n = model.polylines.length;
    const landed = new Int32Array(n + 1);
    const at = (k: number) => landed[Math.max(0, Math.min(k, n))];
    for (let k = 0; k < n; k++) {
      const p = model.polylines[k];
      landed[k] = paper.polylines.length;
      const pts = new Array<number>(p.points.length);
      for (let i = 0; i < p.points.length; i += 2) [pts[i], pts[i + 1]] = tx(p.points[i], p.points[i + 1]);
      const moved: Polyline2 = { ...p, points: pts, entity: p.entity + base };
      if (p.filled) {
        const ring = clipPolygonToRect(pts, vp.clip);
        if (ring.length >= 6) paper.polylines.push({ ...moved, points: ring, holes: p.holes?.map((h) => clipPolygonToRect(h.map((v, i) => (i % 2 ? tx(h[i - 1], v)[1] : tx(v, h[i + 1])[0])), vp.clip)).filter((h) => h.length >= 6) });
      } else {
        for (const run of clipPolylineToRect(p.closed ? [...pts, pts[0], pts[1]] : pts, vp.clip)) paper.polylines.push({ ...moved, points: run, closed: false });
      }
    }
    landed[n] = paper.polylines.length;
    if (model.images?.length) (paper.images ??= []).push(...viewportImages(model.images, tx, vp.clip, base, at));
    // exact curves stay exact: moved by the same similarity, cut at the viewport's border into arcs
    const m = [cos, sin, -sin, cos, vp.cx - vp.viewX * cos + vp.viewY * sin, vp.cy - vp.viewX * sin - vp.viewY * cos];
    for (const g of model.curves ?? []) for (const piece of clipCurveToRect(transformCurve(g, m), vp.clip)) (paper.curves ??= []).push({ ...piece, entity: g.entity + base, ...(g.at !== undefined && { at: at(g.at) }) });
    for (const t of model.texts) {
      const [x, y] = tx(t.x, t.y);
      if (x < vp.clip.minX || x > vp.clip.maxX || y < vp.clip.minY || y > vp.clip.maxY) continue;
      paper.texts.push({ ...t, x, y, height: t.height * vp.scale, boxWidth: t.boxWidth !== undefined ? t.boxWidth * vp.scale : undefined, rotation: t.rotation + (vp.twist * 180) / Math.PI, entity: t.entity + base, ...(t.at !== undefined && { at: at(t.at) }) });
    }
  }
  return paper;
}
