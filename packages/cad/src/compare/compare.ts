/**
 * Drawing compare: what changed between two versions of a drawing, entity by entity, and an overlay of both.
 *
 * Both drawings are flattened the same way (one shared tessellation tolerance, no linetype dashes, the same
 * extents), so an untouched entity produces exactly the same geometry on both sides. Each drawn top-level entity
 * is summarised by hashes of what it draws (its block content included: an INSERT whose block changed draws
 * something else), and matched in passes, each a hash lookup (no pairwise scan):
 *  1. same handle and same type, identical summary → unchanged;
 *  2. identical summary with another handle (re-created, copied and the original erased) → unchanged;
 *  3. same handle and type, something differs → modified (unless handles look regenerated: then they are ignored);
 *  4. same type, same shape and text, placed elsewhere → modified (moved);
 *  5. same type and layer, nearby (grid of the drawing's extents) → modified;
 *  6. the rest: removed (only in A), added (only in B).
 * Entities that draw nothing (types not drawn, layers off) are not compared: the compare is of what one sees.
 */
import { CadError, type Drawing, type Point3 } from '../model/drawing.ts';
import type { Flattened } from '../geometry/flatten.ts';
import { flattenLayout, layoutNames, MODEL } from '../geometry/layout.ts';

export type ChangeKind = 'added' | 'removed' | 'modified';
export type ChangeAspect = 'geometry' | 'layer' | 'colour' | 'text' | 'linetype' | 'lineweight';

export interface ChangeBounds {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface EntityChange {
  kind: ChangeKind;
  /** the entity's handle in A (removed, modified) and in B (added, modified) */
  handleA?: string;
  handleB?: string;
  type: string;
  /** B's layer (A's for a removed entity) */
  layer: string;
  /** what differs, for a modified entity; empty otherwise */
  what: ChangeAspect[];
  /** where to look: the entity in A and/or B (both for a modified one), drawing units */
  bounds: ChangeBounds;
}

export interface CompareCounts {
  added: number;
  removed: number;
  modified: number;
  unchanged: number;
}

export interface DrawingComparison {
  layout: string;
  changes: EntityChange[];
  counts: CompareCounts;
}

/** Per entity index of a flattened side: 'same' or the change it belongs to. */
export interface CompareDetail extends DrawingComparison {
  flatA: Flattened;
  flatB: Flattened;
  /** for each entity of A / B: -1 unchanged, else the index into `changes` (undefined: draws nothing, not compared) */
  stateA: (number | undefined)[];
  stateB: (number | undefined)[];
}

interface Summary {
  ref: number;
  handle?: string;
  type: string;
  layer: string;
  linetype: string;
  lineweight: number;
  geom: string;
  shape: string;
  text: string;
  colour: string;
  bounds: ChangeBounds;
}

/** Two 32-bit FNV-style hashes run side by side: 64 bits, collisions negligible for a drawing's entities. */
class Hash {
  a = 0x811c9dc5 | 0;
  b = 0x01000193 | 0;
  int(n: number) {
    const lo = n | 0, hi = Math.floor(n / 4294967296) | 0;
    this.a = Math.imul(this.a ^ lo, 16777619);
    this.a = Math.imul(this.a ^ hi, 16777619);
    this.b = Math.imul(this.b ^ lo, 0x5bd1e995) ^ (this.b >>> 13);
    this.b = Math.imul(this.b ^ hi, 0x5bd1e995) ^ (this.b >>> 15);
  }
  str(s: string) {
    this.int(s.length);
    for (let i = 0; i < s.length; i++) this.int(s.charCodeAt(i));
  }
  done(): string {
    return (this.a >>> 0).toString(36) + ':' + (this.b >>> 0).toString(36);
  }
}

const emptyBounds = (): ChangeBounds => ({ minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity });

function extentsOf(ds: Drawing[]): { min: Point3; max: Point3 } | undefined {
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const d of ds) {
    const { extMin, extMax } = d.header;
    if (!extMin || !extMax) continue;
    const v = [extMin.x, extMin.y, extMax.x, extMax.y];
    if (!v.every((x) => Number.isFinite(x) && Math.abs(x) < 1e15) || extMax.x < extMin.x || extMax.y < extMin.y) continue;
    minX = Math.min(minX, extMin.x);
    minY = Math.min(minY, extMin.y);
    maxX = Math.max(maxX, extMax.x);
    maxY = Math.max(maxY, extMax.y);
  }
  return Number.isFinite(minX) ? { min: { x: minX, y: minY, z: 0 }, max: { x: maxX, y: maxY, z: 0 } } : undefined;
}

/** The drawn extent of flattened geometry (the header's extents are often stale). */
function drawnExtent(f: Flattened, into: ChangeBounds) {
  for (const p of f.polylines) for (let i = 0; i + 1 < p.points.length; i += 2) grow(into, p.points[i], p.points[i + 1]);
  for (const t of f.texts) grow(into, t.x, t.y);
}

function grow(b: ChangeBounds, x: number, y: number) {
  if (!Number.isFinite(x) || !Number.isFinite(y)) return;
  if (x < b.minX) b.minX = x;
  if (x > b.maxX) b.maxX = x;
  if (y < b.minY) b.minY = y;
  if (y > b.maxY) b.maxY = y;
}

function summarise(f: Flattened, quantum: number): (Summary | undefined)[] {
  const n = f.entities.length;
  const bounds: ChangeBounds[] = [];
  const drawn = new Uint8Array(n);
  for (const p of f.polylines) {
    const b = (bounds[p.entity] ??= emptyBounds());
    drawn[p.entity] = 1;
    for (let i = 0; i + 1 < p.points.length; i += 2) grow(b, p.points[i], p.points[i + 1]);
  }
  for (const t of f.texts) {
    const b = (bounds[t.entity] ??= emptyBounds());
    drawn[t.entity] = 1;
    grow(b, t.x, t.y);
    grow(b, t.x + t.height, t.y + t.height);
  }
  const geom: Hash[] = [], shape: Hash[] = [], text: Hash[] = [], colour: Hash[] = [];
  const q = (v: number) => Math.round(v / quantum);
  for (const p of f.polylines) {
    const e = p.entity, b = bounds[e];
    const g = (geom[e] ??= new Hash()), s = (shape[e] ??= new Hash()), c = (colour[e] ??= new Hash());
    const flags = (p.closed ? 1 : 0) | (p.filled ? 2 : 0);
    g.int(flags);
    s.int(flags);
    g.int(p.points.length);
    s.int(p.points.length);
    for (let i = 0; i + 1 < p.points.length; i += 2) {
      g.int(q(p.points[i]));
      g.int(q(p.points[i + 1]));
      s.int(q(p.points[i] - b.minX));
      s.int(q(p.points[i + 1] - b.minY));
    }
    for (const h of p.holes ?? []) {
      g.int(h.length);
      for (const v of h) g.int(q(v));
    }
    c.int(p.color);
  }
  for (const t of f.texts) {
    const e = t.entity, b = bounds[e];
    const g = (geom[e] ??= new Hash()), s = (shape[e] ??= new Hash()), c = (colour[e] ??= new Hash()), x = (text[e] ??= new Hash());
    const place = [q(t.height), Math.round(t.rotation * 1e4), t.halign, t.valign, t.attachment ?? 0, Math.round(t.widthFactor * 1e4), q(t.boxWidth ?? 0)];
    g.int(q(t.x));
    g.int(q(t.y));
    s.int(q(t.x - b.minX));
    s.int(q(t.y - b.minY));
    for (const v of place) {
      g.int(v);
      s.int(v);
    }
    g.str(t.style.toLowerCase());
    x.str(t.raw ?? t.text);
    c.int(t.color);
  }
  const out: (Summary | undefined)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (!drawn[i]) continue;
    const r = f.entities[i];
    out[i] = {
      ref: i, handle: r.handle?.toUpperCase(), type: r.type, layer: r.layer, linetype: (r.linetype ?? 'BYLAYER').toUpperCase(), lineweight: r.lineweight ?? -1,
      geom: geom[i]?.done() ?? '', shape: shape[i]?.done() ?? '', text: text[i]?.done() ?? '', colour: colour[i]?.done() ?? '', bounds: bounds[i],
    };
  }
  return out;
}

const fullKey = (s: Summary) => `${s.type}\n${s.layer}\n${s.geom}\n${s.text}\n${s.colour}\n${s.linetype}\n${s.lineweight}`;
const shapeKey = (s: Summary) => `${s.type}\n${s.shape}\n${s.text}`;

function aspects(a: Summary, b: Summary): ChangeAspect[] {
  const w: ChangeAspect[] = [];
  if (a.geom !== b.geom) w.push('geometry');
  if (a.layer !== b.layer) w.push('layer');
  if (a.colour !== b.colour) w.push('colour');
  if (a.text !== b.text) w.push('text');
  if (a.linetype !== b.linetype) w.push('linetype');
  if (a.lineweight !== b.lineweight) w.push('lineweight');
  return w;
}

const union = (a: ChangeBounds, b: ChangeBounds): ChangeBounds => ({ minX: Math.min(a.minX, b.minX), minY: Math.min(a.minY, b.minY), maxX: Math.max(a.maxX, b.maxX), maxY: Math.max(a.maxY, b.maxY) });
const centre = (b: ChangeBounds) => [(b.minX + b.maxX) / 2, (b.minY + b.maxY) / 2] as const;

function multimap<T>(items: Iterable<T>, key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const t of items) {
    const k = key(t);
    const l = m.get(k);
    if (l) l.push(t);
    else m.set(k, [t]);
  }
  return m;
}

/** Most candidates one "moved anywhere" lookup looks at (many identical entities: any of them will do). */
const SCAN_CAP = 512;

/**
 * Entities of A by a key and a grid of their centres, for "the nearest free one with the same key": a 3 × 3 cell
 * lookup, or (anywhere) a capped scan of the key's list. Matched entities leave the lists as they are met
 * (swap-remove), so repeated lookups never rescan them: no pairwise work even with thousands of identical entities.
 */
class NearIndex {
  private cells = new Map<string, Summary[]>();
  private all = new Map<string, Summary[]>();
  constructor(private cell: number, private key: (s: Summary) => string, private free: (s: Summary) => boolean, items: Summary[]) {
    for (const s of items) {
      const k = key(s);
      const [i, j] = this.cellOf(s);
      add(this.all, k, s);
      add(this.cells, `${k}\n${i}\n${j}`, s);
    }
  }
  private cellOf(s: Summary): [number, number] {
    const [cx, cy] = centre(s.bounds);
    return [Math.floor(cx / this.cell), Math.floor(cy / this.cell)];
  }
  nearest(y: Summary, reach: number, anywhere: boolean): Summary | undefined {
    const k = this.key(y);
    const [cx, cy] = centre(y.bounds);
    const [ci, cj] = this.cellOf(y);
    let best: Summary | undefined, bestD = reach;
    const scan = (l: Summary[] | undefined, cap: number) => {
      if (!l) return;
      for (let n = 0, seen = 0; n < l.length && seen < cap; ) {
        const x = l[n];
        if (!this.free(x)) {
          l[n] = l[l.length - 1];
          l.pop();
          continue;
        }
        seen++;
        n++;
        const [ax, ay] = centre(x.bounds);
        const dd = Math.hypot(ax - cx, ay - cy);
        if (dd <= bestD) [best, bestD] = [x, dd];
      }
    };
    for (let i = ci - 1; i <= ci + 1; i++) for (let j = cj - 1; j <= cj + 1; j++) scan(this.cells.get(`${k}\n${i}\n${j}`), Infinity);
    if (!best && anywhere) scan(this.all.get(k), SCAN_CAP);
    return best;
  }
}

function add<T>(m: Map<string, T[]>, k: string, v: T) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

export interface CompareOptions {
  /** layout compared (default Model); both drawings must have it */
  layout?: string;
}

/** The compare with what the overlay needs (both flattened sides and each entity's state). */
export function compareDetailed(a: Drawing, b: Drawing, o: CompareOptions = {}): CompareDetail {
  const wanted = (o.layout ?? MODEL).toLowerCase();
  const layout = layoutNames(b).find((n) => n.toLowerCase() === wanted);
  if (!layout || !layoutNames(a).some((n) => n.toLowerCase() === wanted)) throw new CadError('cad.parseFailed', 'Layout switch failed!', `no layout ${o.layout}`);
  // one tolerance and one set of extents for both sides: the same entity tessellates the same way
  const ext = extentsOf([a, b]);
  const sameHeader = (d: Drawing): Drawing => (ext ? { ...d, header: { ...d.header, extMin: ext.min, extMax: ext.max } } : d);
  const diag = ext ? Math.hypot(ext.max.x - ext.min.x, ext.max.y - ext.min.y) : 1000;
  const tolerance = Math.max(1e-6, (diag > 0 ? diag : 1000) / 4000);
  const flatA = flattenLayout(sameHeader(a), layout, { tolerance, linetypes: false });
  const flatB = flattenLayout(sameHeader(b), layout, { tolerance, linetypes: false });
  if (!flatA || !flatB) throw new CadError('cad.parseFailed', 'Layout switch failed!', `no layout ${layout}`);
  const drawnBox = emptyBounds();
  drawnExtent(flatA, drawnBox);
  drawnExtent(flatB, drawnBox);
  const size = Number.isFinite(drawnBox.minX) ? Math.max(drawnBox.maxX - drawnBox.minX, drawnBox.maxY - drawnBox.minY, 1e-9) : 1;
  const quantum = Math.max(size * 1e-7, 1e-9);
  const sa = summarise(flatA, quantum), sb = summarise(flatB, quantum);
  const stateA: (number | undefined)[] = sa.map((s) => (s ? -2 : undefined));
  const stateB: (number | undefined)[] = sb.map((s) => (s ? -2 : undefined));
  const changes: EntityChange[] = [];
  const freeA = () => sa.filter((s): s is Summary => !!s && stateA[s.ref] === -2);
  const freeB = () => sb.filter((s): s is Summary => !!s && stateB[s.ref] === -2);
  const same = (x: Summary, y: Summary) => {
    stateA[x.ref] = -1;
    stateB[y.ref] = -1;
  };
  const modified = (x: Summary, y: Summary) => {
    stateA[x.ref] = stateB[y.ref] = changes.length;
    changes.push({ kind: 'modified', handleA: x.handle, handleB: y.handle, type: y.type, layer: y.layer, what: aspects(x, y), bounds: union(x.bounds, y.bounds) });
  };

  // 1. same handle, same everything
  const byHandleA = new Map<string, Summary>();
  for (const s of sa) if (s?.handle) byHandleA.set(s.handle, s);
  const pending: [Summary, Summary][] = [];
  let common = 0;
  for (const y of sb) {
    const x = y?.handle ? byHandleA.get(y.handle) : undefined;
    if (!x || !y || x.type !== y.type) continue;
    common++;
    if (fullKey(x) === fullKey(y)) same(x, y);
    else pending.push([x, y]);
  }
  // 2. the same entity under another handle
  const poolA = multimap(freeA(), fullKey);
  for (const y of freeB()) {
    const x = poolA.get(fullKey(y))?.pop();
    if (x) same(x, y);
  }
  // 3. same handle, changed; when most shared handles disagree the file's handles were regenerated (another
  // program saved it) and mean nothing
  const handlesReliable = common < 20 || pending.length <= (common * 3) / 4;
  if (handlesReliable) for (const [x, y] of pending) if (stateA[x.ref] === -2 && stateB[y.ref] === -2) modified(x, y);
  // 4. moved: same type, shape and text elsewhere; the nearest one when there are several
  const cell = size / 128;
  const free = (x: Summary) => stateA[x.ref] === -2;
  const moved = new NearIndex(cell, shapeKey, free, freeA());
  for (const y of freeB()) {
    const x = moved.nearest(y, Infinity, true);
    if (x) modified(x, y);
  }
  // 5. reshaped in place: same type and layer, centre near the other's (a grid cell, or half the entity's size)
  const near = new NearIndex(cell, (x) => `${x.type}\n${x.layer}`, free, freeA());
  for (const y of freeB()) {
    const x = near.nearest(y, Math.max(cell, Math.hypot(y.bounds.maxX - y.bounds.minX, y.bounds.maxY - y.bounds.minY) / 2), false);
    if (x) modified(x, y);
  }
  // 6. the rest
  for (const x of freeA()) {
    stateA[x.ref] = changes.length;
    changes.push({ kind: 'removed', handleA: x.handle, type: x.type, layer: x.layer, what: [], bounds: x.bounds });
  }
  for (const y of freeB()) {
    stateB[y.ref] = changes.length;
    changes.push({ kind: 'added', handleB: y.handle, type: y.type, layer: y.layer, what: [], bounds: y.bounds });
  }
  const counts: CompareCounts = { added: 0, removed: 0, modified: 0, unchanged: 0 };
  for (const c of changes) counts[c.kind]++;
  for (const s of stateB) if (s === -1) counts.unchanged++;
  return { layout, changes, counts, flatA, flatB, stateA, stateB };
}

/** What changed from drawing A to drawing B (one layout, Model by default). */
export function compareDrawings(a: Drawing, b: Drawing, o: CompareOptions = {}): DrawingComparison {
  const { layout, changes, counts } = compareDetailed(a, b, o);
  return { layout, changes, counts };
}
