import * as clipping from 'polygon-clipping';
import type { Pt, Subpath } from './page-content.ts';

// a CommonJS package: Node's import gives its exports as the default, a bundler's as the names
const polygons = ((clipping as unknown as { default?: typeof clipping }).default ?? clipping) as typeof clipping;

/** A clipping path as the page sets it (W / W*): its rings (curves flattened to chords) and bounding box. */
export interface Clip {
  box: [number, number, number, number];
  rings: Pt[][];
}

export function clipOf(subpaths: Subpath[], box: [number, number, number, number]): Clip {
  return {
    box,
    rings: subpaths.map((s) => {
      const ring = chords(s);
      // chords() repeats a closed subpath's start at its end: a ring closes by itself
      if (ring.length > 1 && ring[ring.length - 1][0] === ring[0][0] && ring[ring.length - 1][1] === ring[0][1]) ring.pop();
      return ring;
    }).filter((r) => r.length >= 3),
  };
}

/** even-odd inside test against every ring (a ring of fewer than three points clips everything away) */
export function insideClip(c: Clip, p: Pt): boolean {
  if (p[0] < c.box[0] || p[0] > c.box[2] || p[1] < c.box[1] || p[1] > c.box[3]) return false;
  let inside = false;
  for (const ring of c.rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i], [xj, yj] = ring[j];
      if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

function crosses(a: Pt, b: Pt, c: Pt, d: Pt): boolean {
  const o = (p: Pt, q: Pt, r: Pt) => Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  return o(a, b, c) !== o(a, b, d) && o(c, d, a) !== o(c, d, b);
}

/**
 * Whether a painted path shows through the clips in force: one of its points inside all of them, or one of its
 * segments crossing a clip's edge (a long line through a small window). What is wholly clipped away (hatch tiles
 * outside their boundary, a viewport's overflow) is not drawn: a drawing has no clipping paths.
 */
export function showsThrough(clips: Clip[], subpaths: Subpath[]): boolean {
  if (!clips.length) return true;
  const pts: Pt[] = [];
  for (const s of subpaths) {
    pts.push(s.start);
    for (const g of s.segs) pts.push(g.to);
  }
  if (pts.some((p) => clips.every((c) => insideClip(c, p)))) return true;
  // no point inside: still seen when an edge of it crosses into each clip
  return clips.every((c) => {
    for (let i = 1; i < pts.length && i < 64; i++) {
      for (const ring of c.rings) for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) if (crosses(pts[i - 1], pts[i], ring[k], ring[j])) return true;
    }
    return false;
  });
}

type Rect = [number, number, number, number];

/** A clip that is one axis-aligned rectangle (a viewport's, a sheet's): its box, else null. */
export function rectOf(c: Clip): Rect | null {
  if (c.rings.length !== 1) return null;
  const ring = c.rings[0].slice();
  const last = ring[ring.length - 1];
  if (ring.length > 4 && Math.abs(last[0] - ring[0][0]) < 1e-6 && Math.abs(last[1] - ring[0][1]) < 1e-6) ring.pop();
  if (ring.length !== 4) return null;
  const eps = 1e-3;
  const axis = ring.every((p, i) => {
    const q = ring[(i + 1) % 4];
    return Math.abs(p[0] - q[0]) < eps || Math.abs(p[1] - q[1]) < eps;
  });
  return axis ? c.box : null;
}

/** the rectangle every rectangular clip in force leaves (null: none of them is a rectangle) */
export function clipRect(clips: Clip[]): Rect | null {
  let r: Rect | null = null;
  for (const c of clips) {
    const b = rectOf(c);
    if (!b) continue;
    r = r ? [Math.max(r[0], b[0]), Math.max(r[1], b[1]), Math.min(r[2], b[2]), Math.min(r[3], b[3])] : b;
  }
  return r;
}

/** Liang–Barsky: the part of segment a–b inside the rectangle, or null. */
function clipSegment(a: Pt, b: Pt, r: Rect): [Pt, Pt] | null {
  let t0 = 0, t1 = 1;
  const dx = b[0] - a[0], dy = b[1] - a[1];
  for (const [p, q] of [[-dx, a[0] - r[0]], [dx, r[2] - a[0]], [-dy, a[1] - r[1]], [dy, r[3] - a[1]]] as const) {
    if (p === 0) {
      if (q < 0) return null;
      continue;
    }
    const t = q / p;
    if (p < 0) {
      if (t > t1) return null;
      if (t > t0) t0 = t;
    } else {
      if (t < t0) return null;
      if (t < t1) t1 = t;
    }
  }
  return [[a[0] + t0 * dx, a[1] + t0 * dy], [a[0] + t1 * dx, a[1] + t1 * dy]];
}

/** Sutherland–Hodgman: a closed ring cut to the rectangle. */
function clipRing(ring: Pt[], r: Rect): Pt[] {
  let out = ring;
  const edges: [(p: Pt) => boolean, (a: Pt, b: Pt) => Pt][] = [
    [(p) => p[0] >= r[0], (a, b) => [r[0], a[1] + ((b[1] - a[1]) * (r[0] - a[0])) / (b[0] - a[0])]],
    [(p) => p[0] <= r[2], (a, b) => [r[2], a[1] + ((b[1] - a[1]) * (r[2] - a[0])) / (b[0] - a[0])]],
    [(p) => p[1] >= r[1], (a, b) => [a[0] + ((b[0] - a[0]) * (r[1] - a[1])) / (b[1] - a[1]), r[1]]],
    [(p) => p[1] <= r[3], (a, b) => [a[0] + ((b[0] - a[0]) * (r[3] - a[1])) / (b[1] - a[1]), r[3]]],
  ];
  for (const [inside, cross] of edges) {
    const src = out;
    out = [];
    for (let i = 0; i < src.length; i++) {
      const cur = src[i], prev = src[(i + src.length - 1) % src.length];
      if (inside(cur)) {
        if (!inside(prev)) out.push(cross(prev, cur));
        out.push(cur);
      } else if (inside(prev)) out.push(cross(prev, cur));
    }
    if (!out.length) break;
  }
  return out;
}

const straight = (s: Subpath) => s.segs.every((g) => g.kind === 'L');
const inRect = (p: Pt, r: Rect) => p[0] >= r[0] && p[0] <= r[2] && p[1] >= r[1] && p[1] <= r[3];

/**
 * Straight subpaths cut to a rectangular clip (a viewport's overflow is not part of the sheet): strokes by segment,
 * fills as polygons. Curved subpaths wholly inside are kept, the others are kept whole (rare: a curve across a
 * viewport's edge).
 */
export function cutToRect(subpaths: Subpath[], r: Rect, fill: boolean): Subpath[] {
  const out: Subpath[] = [];
  for (const s of subpaths) {
    const pts: Pt[] = [s.start, ...s.segs.map((g) => g.to)];
    if (pts.every((p) => inRect(p, r)) || !straight(s)) {
      out.push(s);
      continue;
    }
    if (fill) {
      const ring = clipRing(pts, r);
      if (ring.length >= 3) out.push({ start: ring[0], segs: ring.slice(1).map((to) => ({ kind: 'L' as const, to })), closed: true });
      continue;
    }
    if (s.closed) pts.push(s.start);
    let cur: Subpath | null = null;
    for (let i = 1; i < pts.length; i++) {
      const seg = clipSegment(pts[i - 1], pts[i], r);
      if (!seg) {
        cur = null;
        continue;
      }
      const [a, b] = seg;
      const last: Pt | undefined = cur ? (cur.segs.length ? cur.segs[cur.segs.length - 1].to : cur.start) : undefined;
      if (!cur || !last || Math.hypot(last[0] - a[0], last[1] - a[1]) > 1e-9) out.push((cur = { start: a, segs: [], closed: false }));
      cur.segs.push({ kind: 'L', to: b });
    }
  }
  return out;
}

/** where segment a–b crosses segment c–d, as a parameter along a–b, or null */
function crossAt(a: Pt, b: Pt, c: Pt, d: Pt): number | null {
  const rx = b[0] - a[0], ry = b[1] - a[1], sx = d[0] - c[0], sy = d[1] - c[1];
  const den = rx * sy - ry * sx;
  if (Math.abs(den) < 1e-12) return null;
  const t = ((c[0] - a[0]) * sy - (c[1] - a[1]) * sx) / den;
  const u = ((c[0] - a[0]) * ry - (c[1] - a[1]) * rx) / den;
  return t > 0 && t < 1 && u >= 0 && u <= 1 ? t : null;
}

/** a subpath as points, its curves as chords (16 per curve: this is only for clips and the parts a clip cuts) */
function chords(s: Subpath): Pt[] {
  const pts: Pt[] = [s.start];
  let p = s.start;
  for (const g of s.segs) {
    if (g.kind === 'L') pts.push(g.to);
    else {
      for (let i = 1; i <= 16; i++) {
        const t = i / 16, u = 1 - t;
        pts.push([u * u * u * p[0] + 3 * u * u * t * g.c1[0] + 3 * u * t * t * g.c2[0] + t * t * t * g.to[0], u * u * u * p[1] + 3 * u * u * t * g.c1[1] + 3 * u * t * t * g.c2[1] + t * t * t * g.to[1]]);
      }
    }
    p = g.to;
  }
  if (s.closed) pts.push(s.start);
  return pts;
}

const ringOf = (pts: Pt[]): clipping.Ring => pts.map(([x, y]) => [x, y]);

/**
 * A fill cut to clips of any shape (a circle, a polygon): the fill's subpaths (curves as chords) as one even-odd
 * region, intersected with each clip's region (even-odd too, as insideClip reads it) by polygon-clipping; the
 * result's rings (outer boundaries and holes) as closed straight subpaths, which a solid hatch fills even-odd.
 */
function cutFillToClips(subpaths: Subpath[], clips: Clip[]): Subpath[] {
  const rings = subpaths.map(chords).filter((r) => r.length >= 3);
  if (!rings.length) return [];
  const evenOdd = (rs: Pt[][]): clipping.MultiPolygon => (rs.length === 1 ? [[ringOf(rs[0])]] : polygons.xor([[ringOf(rs[0])]], ...rs.slice(1).map((r): clipping.Polygon => [ringOf(r)])));
  let region = evenOdd(rings);
  for (const c of clips) {
    if (!region.length) break;
    region = polygons.intersection(region, evenOdd(c.rings));
  }
  const out: Subpath[] = [];
  for (const polygon of region) {
    for (const ring of polygon) {
      // polygon-clipping closes each ring by repeating its first point
      const pts = ring.slice(0, ring.length > 1 && ring[0][0] === ring[ring.length - 1][0] && ring[0][1] === ring[ring.length - 1][1] ? -1 : undefined) as Pt[];
      if (pts.length >= 3) out.push({ start: pts[0], segs: pts.slice(1).map((to) => ({ kind: 'L' as const, to })), closed: true });
    }
  }
  return out;
}

/**
 * Subpaths cut to the clipping paths in force (any shape: a viewport's polygon, a sheet's border, a circle). Strokes:
 * each segment split where it crosses a clip's edge and its pieces kept where they lie inside every clip. Fills: by
 * rectangle when every clip is one, else as regions intersected with the clips' (curves as chords). Subpaths wholly
 * inside are kept as they are (their curves still fit to arcs).
 */
export function cutToClips(subpaths: Subpath[], clips: Clip[], fill: boolean): Subpath[] {
  if (!clips.length) return subpaths;
  const inside = (p: Pt) => clips.every((c) => insideClip(c, p));
  if (fill) {
    if (clips.every((c) => rectOf(c)) && subpaths.every(straight)) return cutToRect(subpaths, clipRect(clips)!, true);
    if (subpaths.every((s) => chords(s).every(inside))) return subpaths;
    return cutFillToClips(subpaths, clips);
  }
  const out: Subpath[] = [];
  for (const s of subpaths) {
    if ([s.start, ...s.segs.map((g) => g.to)].every(inside) && s.segs.every((g) => g.kind === 'L' || (inside(g.c1) && inside(g.c2)))) {
      out.push(s);
      continue;
    }
    const pts = chords(s);
    let cur: Subpath | null = null;
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1], b = pts[i];
      const ts = [0, 1];
      for (const c of clips) for (const ring of c.rings) for (let j = 0, k = ring.length - 1; j < ring.length; k = j++) {
        const t = crossAt(a, b, ring[k], ring[j]);
        if (t !== null) ts.push(t);
      }
      ts.sort((x, y) => x - y);
      for (let j = 1; j < ts.length; j++) {
        if (ts[j] - ts[j - 1] < 1e-9) continue;
        const at = (t: number): Pt => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
        if (!inside(at((ts[j - 1] + ts[j]) / 2))) {
          cur = null;
          continue;
        }
        const p0 = at(ts[j - 1]), p1 = at(ts[j]);
        const last: Pt | undefined = cur ? (cur.segs.length ? cur.segs[cur.segs.length - 1].to : cur.start) : undefined;
        if (!cur || !last || Math.hypot(last[0] - p0[0], last[1] - p0[1]) > 1e-9) out.push((cur = { start: p0, segs: [], closed: false }));
        cur.segs.push({ kind: 'L', to: p1 });
      }
    }
  }
  return out;
}
