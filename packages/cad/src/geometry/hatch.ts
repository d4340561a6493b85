import type { PairReader } from '../dxf/pair-store.ts';
import { fitPointCurve, tessellateNurbs } from './spline.ts';
import { MAX_HATCH_CROSSINGS } from './content-budget.ts';

/**
 * HATCH read from its raw group codes: boundary loops (polyline paths with bulges; edge paths of lines, arcs, ellipse
 * arcs and splines) tessellated in the hatch's OCS, the fill kind and the pattern definition lines. The DXF pattern
 * lines are stored already rotated and scaled by the hatch's own angle (52) and scale (41): they are used as they are.
 */
export interface PatternLine {
  /** degrees */
  angle: number;
  baseX: number;
  baseY: number;
  /** offset from one line of the family to the next */
  offX: number;
  offY: number;
  /** dash lengths: positive dash, negative gap, 0 dot; empty = continuous */
  dashes: number[];
}

export interface HatchData {
  /** closed rings x0 y0 x1 y1 … in OCS, without the closing point repeated */
  loops: number[][];
  solid: boolean;
  pattern: string;
  lines: PatternLine[];
  /** gradient fill (450 = 1): drawn filled with its first colour, `gradientColor` (0xRRGGBB) when the file gives one */
  gradient: boolean;
  gradientColor?: number;
  /** 75: 0 odd parity (islands alternate), 1 outermost, 2 ignore islands */
  style: number;
}

// readHatch's helpers are module functions (a closure made per hatch costs a name definition under tsx's keepNames)
/** the code at k, undefined past the end (as `pairs[k]?.[0]`) */
const codeOf = (r: PairReader, n: number, k: number) => (k < n ? r.codeAt(k) : undefined);
/** the value at k as a number */
const numOf = (r: PairReader, k: number) => Number(r.valueAt(k));
/** ellipse edges store true angles, not ellipse parameters: converted (same revolution kept); other edges as they are */
const edgeParam = (type: number, rr: number, a: number) => (type === 3 && rr > 0 ? Math.atan2(Math.sin(a) / rr, Math.cos(a)) + Math.round((a - Math.atan2(Math.sin(a), Math.cos(a))) / (Math.PI * 2)) * Math.PI * 2 : a);

export function readHatch(r: PairReader, tol: number): HatchData {
  const n = r.count;
  let i = 0;
  while (i < n && !(r.codeAt(i) === 100 && r.valueAt(i) === 'AcDbHatch')) i++;
  if (i === n) i = 0;
  const at = (c: number) => (i < n && r.codeAt(i) === c ? numOf(r, i++) : undefined);
  const skipTo = (c: number) => {
    while (i < n && r.codeAt(i) !== c) i++;
  };
  const h: HatchData = { loops: [], solid: false, pattern: '', lines: [], gradient: false, style: 0 };
  for (let j = i; j < n && r.codeAt(j) !== 91; j++) {
    if (r.codeAt(j) === 2) h.pattern = String(r.valueAt(j));
    if (r.codeAt(j) === 70) h.solid = numOf(r, j) === 1;
  }
  // some writers name the pattern SOLID without setting the solid-fill flag
  if (h.pattern.toUpperCase() === 'SOLID') h.solid = true;
  skipTo(91);
  const nPaths = at(91) ?? 0;
  const flags: number[] = [];
  for (let path = 0; path < nPaths && i < n; path++) {
    skipTo(92);
    const flag = at(92);
    if (flag === undefined) break;
    const ring: number[] = [];
    if (flag & 2) {
      // polyline path: 72 has bulges, 73 closed, 93 vertex count, then 10/20 [42]
      at(72);
      at(73);
      const nv = at(93) ?? 0;
      const verts: { x: number; y: number; b: number }[] = [];
      while (verts.length < nv && i < n) {
        const c = r.codeAt(i);
        if (c === 10) verts.push({ x: numOf(r, i), y: 0, b: 0 });
        else if (c === 20 && verts.length) verts[verts.length - 1].y = numOf(r, i);
        else break;
        i++;
        if (codeOf(r, n, i) === 20) verts[verts.length - 1].y = numOf(r, i++);
        if (codeOf(r, n, i) === 42) verts[verts.length - 1].b = numOf(r, i++);
      }
      for (let v = 0; v < verts.length; v++) {
        const a = verts[v], b = verts[(v + 1) % verts.length];
        ring.push(a.x, a.y);
        if (a.b) bulgeInterior(a.x, a.y, b.x, b.y, a.b, tol, ring);
      }
    } else {
      const nEdges = at(93) ?? 0;
      for (let edge = 0; edge < nEdges && i < n; edge++) {
        const type = at(72);
        const pts: number[] = [];
        if (type === 1) {
          const x0 = at(10) ?? 0, y0 = at(20) ?? 0, x1 = at(11) ?? 0, y1 = at(21) ?? 0;
          pts.push(x0, y0, x1, y1);
        } else if (type === 2 || type === 3) {
          const cx = at(10) ?? 0, cy = at(20) ?? 0;
          const mx = type === 3 ? at(11) ?? 1 : 0, my = type === 3 ? at(21) ?? 0 : 0;
          const rr = at(40) ?? 0;
          const s = ((at(50) ?? 0) * Math.PI) / 180, e = ((at(51) ?? 360) * Math.PI) / 180;
          const ccw = (at(73) ?? 1) !== 0;
          // a clockwise edge stores its angles mirrored at the x axis
          const ps = edgeParam(type, rr, ccw ? s : -s), pe = edgeParam(type, rr, ccw ? e : -e);
          const a0 = ps;
          let sweep = pe - ps;
          if (ccw && sweep <= 0) sweep += Math.PI * 2;
          if (!ccw && sweep >= 0) sweep -= Math.PI * 2;
          if (Math.abs(e - s) >= Math.PI * 2 - 1e-9) sweep = ccw ? Math.PI * 2 : -Math.PI * 2;
          const major = type === 3 ? Math.hypot(mx, my) : rr;
          const steps = Math.min(512, Math.max(4, Math.ceil(Math.abs(sweep) / (2 * Math.acos(Math.max(-1, 1 - tol / Math.max(major, tol)))))));
          for (let q = 0; q <= steps; q++) {
            const t = a0 + (sweep * q) / steps, c = Math.cos(t), sn = Math.sin(t);
            if (type === 2) pts.push(cx + rr * c, cy + rr * sn);
            else pts.push(cx + mx * c - my * rr * sn, cy + my * c + mx * rr * sn); // rr is the minor/major ratio here
          }
        } else if (type === 4) {
          const degree = at(94) ?? 3;
          at(73);
          at(74);
          const nk = at(95) ?? 0, nc = at(96) ?? 0;
          const knots: number[] = [], ctrl: number[] = [], weights: number[] = [];
          while (codeOf(r, n, i) === 40 && knots.length < nk) knots.push(numOf(r, i++));
          while (codeOf(r, n, i) === 10 && ctrl.length / 2 < nc) {
            ctrl.push(numOf(r, i++), codeOf(r, n, i) === 20 ? numOf(r, i++) : 0);
            if (codeOf(r, n, i) === 42) weights.push(numOf(r, i++));
          }
          // R2010+ adds fit data (97 count, 11/21 points, 12/22 and 13/23 tangents); after the last edge a 97 may be
          // the path's source-object count instead, so there it is only taken when fit data follows
          const fit: number[] = [];
          if (codeOf(r, n, i) === 97 && (edge < nEdges - 1 || [11, 12, 97].includes(codeOf(r, n, i + 1) as number))) {
            i++;
            while (codeOf(r, n, i) === 11) fit.push(numOf(r, i++), codeOf(r, n, i) === 21 ? numOf(r, i++) : 0);
            for (const c of [12, 13]) if (codeOf(r, n, i) === c) i += codeOf(r, n, i + 1) === c + 10 ? 2 : 1;
          }
          // pushed one by one: a spread of a long tessellation overflows the call stack
          if (ctrl.length >= 4) for (const v of tessellateNurbs(degree, knots, ctrl, weights.length ? weights : undefined, tol)) pts.push(v);
          else if (fit.length >= 4) pts.push(...fitPointCurve(fit, tol));
        } else break;
        // edges meet end to start; drop the shared point
        const start = ring.length >= 2 && pts.length >= 2 && Math.abs(ring[ring.length - 2] - pts[0]) + Math.abs(ring[ring.length - 1] - pts[1]) < tol * 1e-3 ? 2 : 0;
        for (let q = start; q < pts.length; q++) ring.push(pts[q]);
      }
    }
    // the source-object handles (97 count, 330 …) follow each path: skipped by the next skipTo
    while (i < n && (r.codeAt(i) === 97 || r.codeAt(i) === 330)) i++;
    if (ring.length >= 6) {
      if (Math.abs(ring[0] - ring[ring.length - 2]) + Math.abs(ring[1] - ring[ring.length - 1]) < 1e-12) ring.length -= 2;
      h.loops.push(ring);
      flags.push(flag);
    }
  }
  // after the paths: 75 style, 76 pattern type, 52 angle, 41 scale, 77 double, 78 line count, then the lines
  for (; i < n; i++) {
    const c = r.codeAt(i);
    if (c === 75) h.style = numOf(r, i);
    else if (c === 78) {
      const nl = numOf(r, i);
      i++;
      while (h.lines.length < nl && codeOf(r, n, i) === 53) {
        const line: PatternLine = { angle: numOf(r, i++), baseX: 0, baseY: 0, offX: 0, offY: 0, dashes: [] };
        if (codeOf(r, n, i) === 43) line.baseX = numOf(r, i++);
        if (codeOf(r, n, i) === 44) line.baseY = numOf(r, i++);
        if (codeOf(r, n, i) === 45) line.offX = numOf(r, i++);
        if (codeOf(r, n, i) === 46) line.offY = numOf(r, i++);
        const nd = codeOf(r, n, i) === 79 ? numOf(r, i++) : 0;
        while (line.dashes.length < nd && codeOf(r, n, i) === 49) line.dashes.push(numOf(r, i++));
        h.lines.push(line);
      }
      i--;
    } else if (c === 450) {
      h.gradient = numOf(r, i) === 1;
      if (h.gradient) {
        // the first of the gradient's colours: its true colour (421) or ACI (63)
        for (let j = i + 1; j < n; j++) {
          if (r.codeAt(j) === 421) {
            h.gradientColor = numOf(r, j) & 0xffffff;
            break;
          }
          if (r.codeAt(j) === 63) {
            // the ACI, unless a true colour follows it
            h.gradientColor = codeOf(r, n, j + 1) === 421 ? numOf(r, j + 1) & 0xffffff : -numOf(r, j); // negative: an ACI the caller resolves
            break;
          }
        }
      }
    }
  }
  if (h.style === 2 && flags.some((f) => f & 1)) h.loops = h.loops.filter((_, k) => flags[k] & 1);
  else if (h.style === 1 && flags.some((f) => f & 17)) h.loops = h.loops.filter((_, k) => flags[k] & 17);
  return h;
}

/** Points strictly inside an arc segment given by its bulge (the end point is left to the caller). */
export function bulgeInterior(x0: number, y0: number, x1: number, y1: number, bulge: number, tol: number, out: number[]) {
  const theta = 4 * Math.atan(bulge);
  const chord = Math.hypot(x1 - x0, y1 - y0);
  if (!chord) return;
  const r = chord / (2 * Math.sin(theta / 2));
  const h = r * Math.cos(theta / 2);
  const cx = (x0 + x1) / 2 - ((y1 - y0) / chord) * h;
  const cy = (y0 + y1) / 2 + ((x1 - x0) / chord) * h;
  const a0 = Math.atan2(y0 - cy, x0 - cx);
  const ar = Math.abs(r);
  const n = Math.min(512, Math.max(4, Math.ceil(Math.abs(theta) / (2 * Math.acos(Math.max(-1, 1 - tol / Math.max(ar, tol)))))));
  for (let k = 1; k < n; k++) {
    const a = a0 + (theta * k) / n;
    out.push(cx + ar * Math.cos(a), cy + ar * Math.sin(a));
  }
}

export function ringArea(r: readonly number[]): number {
  let a = 0;
  for (let i = 0, n = r.length; i < n; i += 2) {
    const j = (i + 2) % n;
    a += r[i] * r[j + 1] - r[j] * r[i + 1];
  }
  return a / 2;
}

/**
 * The pattern lines of a hatch clipped to its loops by the even-odd rule: each family of parallel lines is swept
 * across the boundary in its own frame, every boundary edge drops its crossings into the buckets of the lines it
 * crosses, and each line keeps the pieces between alternate crossings, cut into the line's dashes. Returns the
 * segments as one flat list x0 y0 x1 y1 x0 y0 … (4 numbers per segment, a dot is a zero-length segment), or null when
 * more than `cap` segments would be made.
 *
 * No array per scan line or per segment: this runs for every pattern hatch, and the generated 10 MB drawing makes
 * millions of crossings (the buckets are one typed array filled by a counting sort instead).
 */
export function clipPattern(loops: readonly number[][], lines: readonly PatternLine[], cap: number, budget?: { work: number }): number[] | null {
  const out: number[] = [];
  let work = 0, crossed = 0;
  // the drawing's share of pattern work (boundary points framed and crossings found, over all its hatches): a hatch
  // in a block inserted thousands of times does its work each time, even when its segments end over the cap
  const allowed = Math.min(MAX_HATCH_CROSSINGS, budget?.work ?? Infinity);
  let vertices = 0;
  for (const r of loops) vertices += r.length >> 1;
  for (const line of lines) {
    crossed += vertices;
    if (crossed > allowed) return spent(null);
    const a = (line.angle * Math.PI) / 180;
    const ux = Math.cos(a), uy = Math.sin(a);
    const nx = -uy, ny = ux;
    const spacing = line.offX * nx + line.offY * ny;
    const shift = line.offX * ux + line.offY * uy;
    if (Math.abs(spacing) < 1e-12) continue;
    // boundary in the family's frame: s along the lines, t across them, measured from the base point
    let tmin = Infinity, tmax = -Infinity;
    const frame = loops.map((ring) => {
      const f = new Float64Array(ring.length);
      for (let k = 0; k < ring.length; k += 2) {
        const dx = ring[k] - line.baseX, dy = ring[k + 1] - line.baseY;
        f[k] = dx * ux + dy * uy;
        f[k + 1] = dx * nx + dy * ny;
        if (f[k + 1] < tmin) tmin = f[k + 1];
        if (f[k + 1] > tmax) tmax = f[k + 1];
      }
      return f;
    });
    const d = Math.abs(spacing);
    const kmin = Math.ceil(tmin / d), kmax = Math.floor(tmax / d);
    const count = kmax - kmin + 1;
    if (count <= 0) continue;
    const segments = out.length / 4;
    if (count > cap || segments + count > cap) return spent(null);
    // the crossings' array is edges × lines long: a zig-zag boundary under dense lines asked for gigabytes
    crossed += crossingCount(frame, d, kmin, kmax);
    if (crossed > allowed) return spent(null);
    const { xs, start } = crossings(frame, d, kmin, kmax);
    const period = line.dashes.reduce((acc, x) => acc + Math.abs(x), 0);
    const dashed = line.dashes.length > 0 && period > 0;
    const put = (s0: number, s1: number, t: number) => {
      const x0 = line.baseX + s0 * ux + t * nx, y0 = line.baseY + s0 * uy + t * ny;
      out.push(x0, y0, line.baseX + s1 * ux + t * nx, line.baseY + s1 * uy + t * ny);
    };
    for (let q = 0; q < count; q++) {
      const from = start[q], to = start[q + 1];
      if (to - from < 2) continue;
      sortRange(xs, from, to);
      const lineNo = q + kmin;
      const t = lineNo * d;
      // lines are numbered from the base point along the offset: line n starts its dashes n × shift along
      const n = spacing > 0 ? lineNo : -lineNo;
      const phase = n * shift;
      for (let p = from; p + 1 < to; p += 2) {
        const a0 = xs[p], a1 = xs[p + 1];
        if (a1 <= a0) continue;
        if (!dashed) {
          put(a0, a1, t);
          continue;
        }
        // walk the dash pattern from the first period start at or before a0
        let s = phase + Math.floor((a0 - phase) / period) * period;
        let e = 0;
        while (s < a1) {
          if (++work > cap * 8) return spent(null);
          const len = line.dashes[e];
          const s1 = s + Math.abs(len);
          if (len >= 0) {
            const c0 = Math.max(s, a0), c1 = Math.min(s1, a1);
            if (len === 0 ? s >= a0 && s <= a1 : c1 > c0) put(len === 0 ? s : c0, len === 0 ? s : c1, t);
            if (out.length / 4 > cap) return spent(null);
          }
          s = s1;
          e = (e + 1) % line.dashes.length;
        }
      }
    }
  }
  return spent(out);

  function spent<T>(r: T): T {
    if (budget) budget.work -= crossed;
    return r;
  }
}

/** How many crossings `crossings` would store (each edge's range of scan lines, counted without walking it). */
function crossingCount(frame: readonly Float64Array[], d: number, kmin: number, kmax: number): number {
  let n = 0;
  for (const f of frame) {
    for (let k = 0; k < f.length; k += 2) {
      const j = (k + 2) % f.length;
      const t0 = f[k + 1], t1 = f[j + 1];
      if (t0 === t1) continue;
      const lo = Math.max(kmin, Math.ceil(Math.min(t0, t1) / d)), hi = Math.min(kmax, Math.ceil(Math.max(t0, t1) / d) - 1);
      if (hi >= lo) n += hi - lo + 1;
    }
  }
  return n;
}

/**
 * Where the boundary edges cross the scan lines kmin … kmax (t = k × d), grouped by line: line q's crossings are
 * xs[start[q]] … xs[start[q + 1] − 1], in edge order (a count, then a fill: one array for all lines).
 */
function crossings(frame: readonly Float64Array[], d: number, kmin: number, kmax: number): { xs: Float64Array; start: Int32Array } {
  const count = kmax - kmin + 1;
  const start = new Int32Array(count + 1);
  scanCrossings(frame, d, kmin, kmax, start, null);
  for (let q = 0; q < count; q++) start[q + 1] += start[q];
  const xs = new Float64Array(start[count]);
  scanCrossings(frame, d, kmin, kmax, start.slice(0, count), xs);
  return { xs, start };
}

/**
 * Every crossing of an edge with a scan line, in edge order: counted into slots[q + 1] (`xs` null), or stored at
 * xs[slots[q]++]. One loop for both passes, and no callback (a call per crossing boxed its number).
 */
function scanCrossings(frame: readonly Float64Array[], d: number, kmin: number, kmax: number, slots: Int32Array, xs: Float64Array | null) {
  for (const f of frame) {
    for (let k = 0; k < f.length; k += 2) {
      const j = (k + 2) % f.length;
      const s0 = f[k], t0 = f[k + 1], s1 = f[j], t1 = f[j + 1];
      if (t0 === t1) continue;
      const lo = Math.min(t0, t1), hi = Math.max(t0, t1);
      // half-open [lo, hi): a vertex on a scan line is counted once
      for (let q = Math.max(kmin, Math.ceil(lo / d)); q <= kmax && q * d < hi; q++) {
        if (xs) xs[slots[q - kmin]++] = s0 + ((q * d - t0) / (t1 - t0)) * (s1 - s0);
        else slots[q - kmin + 1]++;
      }
    }
  }
}

/**
 * xs[from … to) sorted ascending exactly as `Array.prototype.sort((p, r) => p - r)` sorts it (stable: equal values,
 * −0 and 0 included, keep their order): a swap or an insertion sort for the usual few crossings, the built-in sort
 * when there are many or a NaN makes that comparator inconsistent.
 */
function sortRange(xs: Float64Array, from: number, to: number) {
  if (to - from === 2) {
    if (xs[from] > xs[from + 1]) {
      const x = xs[from];
      xs[from] = xs[from + 1];
      xs[from + 1] = x;
    }
    return;
  }
  let nan = false;
  for (let i = from; i < to && !nan; i++) nan = xs[i] !== xs[i];
  if (nan || to - from > 32) {
    const sorted = Array.from(xs.subarray(from, to)).sort((p, r) => p - r);
    xs.set(sorted, from);
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const v = xs[i];
    let j = i - 1;
    for (; j >= from && xs[j] > v; j--) xs[j + 1] = xs[j];
    xs[j + 1] = v;
  }
}
