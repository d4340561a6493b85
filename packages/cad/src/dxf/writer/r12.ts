import type { Entity, Pair } from '../../model/drawing.ts';
import { pairValue } from '../reader.ts';
import { tessellateNurbs } from '../../geometry/spline.ts';

/**
 * R12 (AC1009) holds a short list of entity types, each with a short list of group codes (DXF R12 reference).
 * Newer types are written as R12 ones where one says the same thing (LWPOLYLINE as POLYLINE, MTEXT as TEXT
 * lines, ELLIPSE and SPLINE as polylines within a small tolerance, LEADER as its polyline, ACAD_TABLE as an insert of
 * its block); the rest are left out and counted, never half written.
 */
const COMMON = [8, 6, 62, 67, 39, 38, 210, 220, 230];
const xyz = (...bases: number[]) => bases.flatMap((b) => [b, b + 10, b + 20]);
const R12_CODES: Record<string, Set<number>> = Object.fromEntries(
  Object.entries({
    LINE: [...xyz(10, 11)],
    POINT: [...xyz(10), 50],
    CIRCLE: [...xyz(10), 40],
    ARC: [...xyz(10), 40, 50, 51],
    TRACE: [...xyz(10, 11, 12, 13)],
    SOLID: [...xyz(10, 11, 12, 13)],
    '3DFACE': [...xyz(10, 11, 12, 13), 70],
    TEXT: [...xyz(10, 11), 1, 7, 40, 41, 50, 51, 71, 72, 73],
    SHAPE: [...xyz(10), 2, 40, 41, 50, 51],
    INSERT: [...xyz(10), 2, 41, 42, 43, 44, 45, 50, 66, 70, 71],
    ATTDEF: [...xyz(10, 11), 1, 2, 3, 7, 40, 41, 50, 51, 70, 71, 72, 73, 74],
    ATTRIB: [...xyz(10, 11), 1, 2, 7, 40, 41, 50, 51, 70, 71, 72, 73, 74],
    POLYLINE: [...xyz(10), 40, 41, 66, 70, 71, 72, 73, 74, 75],
    VERTEX: [...xyz(10), 40, 41, 42, 50, 70, 71, 72, 73, 74],
    SEQEND: [],
    DIMENSION: [...xyz(10, 11, 12, 13, 14, 15, 16), 1, 2, 3, 40, 50, 51, 52, 53, 70],
  }).map(([k, v]) => [k, new Set([...COMMON, ...v])]),
);

export const R12_TYPES = new Set(Object.keys(R12_CODES));

/** One record of the R12 output: its type, its pairs (no handle, no owner) and the records it owns. */
export interface R12Record {
  type: string;
  pairs: Pair[];
  children?: R12Record[];
  /** the source entity whose handle the record keeps (the first record an entity became) */
  source?: Entity;
}

export interface R12Result {
  records: R12Record[];
  /** the R12 type the entity was written as, when another */
  as?: string;
}

const num = (e: Entity, code: number, dflt = 0) => {
  const v = pairValue(e, code);
  return v === undefined ? dflt : Number(v);
};

/** The entity's common pairs (layer, colour, linetype, paper space, thickness, extrusion) as R12 has them. */
function commonPairs(e: Entity): Pair[] {
  return e.pairs.filter(([c]) => COMMON.includes(c) && c !== 38);
}

/** R12 records of one entity, or none when R12 cannot hold it. */
export function toR12(e: Entity): R12Result {
  const codes = R12_CODES[e.type];
  if (codes) {
    if (e.type === 'DIMENSION' && pairValue(e, 2) === undefined) return { records: [] };
    const pairs = filterPairs(e.pairs, codes);
    const children = e.children?.flatMap((c) => toR12(c).records);
    return { records: [{ type: e.type, pairs, ...(children?.length ? { children } : {}), source: e }] };
  }
  switch (e.type) {
    case 'LWPOLYLINE':
      return { records: [lwPolyline(e)], as: 'POLYLINE' };
    case 'MTEXT':
      return { records: mtextLines(e), as: 'TEXT' };
    case 'ELLIPSE':
      return { records: [polyline(e, ellipsePoints(e), false)], as: 'POLYLINE' };
    case 'SPLINE': {
      const pts = splinePoints(e);
      return pts.length >= 4 ? { records: [polyline(e, pts, (num(e, 70) & 1) !== 0)], as: 'POLYLINE' } : { records: [] };
    }
    case 'LEADER': {
      const pts = e.pairs.flatMap(([c, v], i) => (c === 10 ? [Number(v), Number(e.pairs[i + 1]?.[0] === 20 ? e.pairs[i + 1][1] : 0)] : []));
      return pts.length >= 4 ? { records: [polyline(e, pts, false)], as: 'POLYLINE' } : { records: [] };
    }
    case 'ACAD_TABLE': {
      const name = pairValue(e, 2);
      if (name === undefined) return { records: [] };
      return { records: [{ type: 'INSERT', pairs: [...commonPairs(e), [2, String(name)], [10, num(e, 10)], [20, num(e, 20)], [30, num(e, 30)]], source: e }], as: 'INSERT' };
    }
    default:
      return { records: [] };
  }
}

/** The pairs R12 knows for the type, no subclass markers, 102 groups or XDATA (its APPIDs would be needed too). */
function filterPairs(pairs: readonly Pair[], codes: Set<number>): Pair[] {
  const out: Pair[] = [];
  let embedded = false;
  for (const p of pairs) {
    if (p[0] === 101) embedded = true;
    if (p[0] >= 1000) break;
    if (!embedded && codes.has(p[0])) out.push(p);
  }
  return out;
}

function lwPolyline(e: Entity): R12Record {
  const flags = num(e, 70);
  const elevation = num(e, 38);
  const constWidth = pairValue(e, 43);
  const vertices: R12Record[] = [];
  let v: Pair[] | null = null;
  for (const [c, val] of e.pairs) {
    if (c === 10) {
      v = [[10, Number(val)]];
      vertices.push({ type: 'VERTEX', pairs: v });
    } else if (v && c === 20) v.push([20, Number(val)], [30, elevation]);
    else if (v && (c === 40 || c === 41 || c === 42)) v.push([c, Number(val)]);
  }
  const common = commonPairs(e);
  for (const x of vertices) x.pairs.unshift(...common.filter(([c]) => c === 8));
  const head: Pair[] = [...common, [66, 1], [10, 0], [20, 0], [30, elevation], [70, (flags & 1) | (flags & 128)]];
  if (constWidth !== undefined) head.push([40, Number(constWidth)], [41, Number(constWidth)]);
  return { type: 'POLYLINE', pairs: head, children: [...vertices, { type: 'SEQEND', pairs: common.filter(([c]) => c === 8) }], source: e };
}

function polyline(e: Entity, xy: number[], closed: boolean): R12Record {
  const common = commonPairs(e);
  const layer = common.filter(([c]) => c === 8);
  const vertices: R12Record[] = [];
  for (let i = 0; i + 1 < xy.length; i += 2) vertices.push({ type: 'VERTEX', pairs: [...layer, [10, xy[i]], [20, xy[i + 1]], [30, 0]] });
  return { type: 'POLYLINE', pairs: [...common, [66, 1], [10, 0], [20, 0], [30, 0], [70, closed ? 1 : 0]], children: [...vertices, { type: 'SEQEND', pairs: layer }], source: e };
}

function ellipsePoints(e: Entity): number[] {
  const cx = num(e, 10), cy = num(e, 20), mx = num(e, 11), my = num(e, 21), ratio = num(e, 40, 1);
  let a0 = num(e, 41), a1 = num(e, 42, Math.PI * 2);
  if (a1 <= a0) a1 += Math.PI * 2;
  // minor axis: the major turned a quarter, counter-clockwise about the extrusion (z up, or down when 230 < 0)
  const flip = num(e, 230, 1) < 0 ? -1 : 1;
  const nx = -my * ratio * flip, ny = mx * ratio * flip;
  const n = Math.max(8, Math.min(256, Math.ceil(((a1 - a0) / (Math.PI * 2)) * 128)));
  const out: number[] = [];
  for (let i = 0; i <= n; i++) {
    const t = a0 + ((a1 - a0) * i) / n;
    const x = cx + mx * Math.cos(t) + nx * Math.sin(t);
    const y = cy + my * Math.cos(t) + ny * Math.sin(t);
    out.push(x, y);
  }
  return out;
}

function splinePoints(e: Entity): number[] {
  const degree = num(e, 71, 3);
  const knots = e.pairs.filter(([c]) => c === 40).map(([, v]) => Number(v));
  const weights = e.pairs.filter(([c]) => c === 41).map(([, v]) => Number(v));
  const ctrl: number[] = [];
  const fit: number[] = [];
  e.pairs.forEach(([c, v], i) => {
    const y = Number(e.pairs[i + 1]?.[1] ?? 0);
    if (c === 10) ctrl.push(Number(v), y);
    else if (c === 11) fit.push(Number(v), y);
  });
  if (ctrl.length >= 4) {
    const size = Math.max(1e-9, Math.hypot(Math.max(...ctrl.filter((_, i) => i % 2 === 0)) - Math.min(...ctrl.filter((_, i) => i % 2 === 0)), Math.max(...ctrl.filter((_, i) => i % 2)) - Math.min(...ctrl.filter((_, i) => i % 2))));
    return tessellateNurbs(degree, knots, ctrl, weights.length ? weights : undefined, size / 2000);
  }
  return fit;
}

/** MTEXT's text without its formatting codes, one string per paragraph (\P and real line breaks). */
export function mtextPlain(s: string): string[] {
  const t = s
    .replace(/\\\\/g, '\u0001').replace(/\\\{/g, '\u0002').replace(/\\\}/g, '\u0003')
    .replace(/\\P/g, '\n')
    .replace(/\\[Ss]([^;]*?)[#^/]([^;]*);/g, '$1/$2')
    .replace(/\\[ACFHQTWfcpa][^;]*;/g, '')
    .replace(/\\[LlOoKkNX]/g, '')
    .replace(/\\~/g, ' ')
    .replace(/[{}]/g, '')
    .replace(/\^J/g, '\n')
    .replace(/\u0001/g, '\\').replace(/\u0002/g, '{').replace(/\u0003/g, '}');
  return t.split('\n');
}

function mtextLines(e: Entity): R12Record[] {
  let text = '';
  for (const [c, v] of e.pairs) if (c === 3 || c === 1) text += String(v);
  const lines = mtextPlain(text);
  const h = num(e, 40, 2.5);
  const spacing = h * 1.6667 * num(e, 44, 1);
  const attach = num(e, 71, 1);
  // the direction vector (11/21) when given, else the rotation (50, radians for MTEXT)
  const dx = pairValue(e, 11), dy = pairValue(e, 21);
  const angle = dx !== undefined && dy !== undefined ? Math.atan2(Number(dy), Number(dx)) : num(e, 50);
  const deg = (angle * 180) / Math.PI;
  const col = (attach - 1) % 3; // 0 left, 1 centre, 2 right
  const row = Math.floor((attach - 1) / 3); // 0 top, 1 middle, 2 bottom
  const total = h + spacing * (lines.length - 1);
  // baseline of the first line below the insertion point, by the attachment row
  const first = row === 0 ? -h : row === 1 ? -h + total / 2 : -h + total;
  const cos = Math.cos(angle), sin = Math.sin(angle);
  const x0 = num(e, 10), y0 = num(e, 20), z0 = num(e, 30);
  const common = commonPairs(e);
  const style = pairValue(e, 7);
  return lines.flatMap((line, i) => {
    if (!line.trim()) return [];
    const oy = first - spacing * i;
    const x = x0 - sin * oy, y = y0 + cos * oy;
    const pairs: Pair[] = [...common, [10, x], [20, y], [30, z0], [40, h], [1, line], [50, deg]];
    if (style !== undefined) pairs.push([7, String(style)]);
    if (col) pairs.push([72, col], [11, x], [21, y], [31, z0]);
    return [{ type: 'TEXT', pairs, ...(i === 0 ? { source: e } : {}) }];
  });
}
