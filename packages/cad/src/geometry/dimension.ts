import type { Entity } from '../model/drawing.ts';
import { pairValue } from '../dxf/reader.ts';

/**
 * Annotation geometry the flattener generates itself: DIMENSIONs saved without their block, arrowheads of LEADERs and
 * MULTILEADERs. Everything is in WCS (the caller applies the block transform); arrowheads are AutoCAD's closed filled
 * arrow (a triangle as long as DIMASZ and a third of it wide) or, with DIMTSZ > 0, oblique ticks.
 */
export interface Annotation {
  lines: number[][];
  /** filled closed rings (arrowheads) */
  solids: number[][];
  texts: { x: number; y: number; height: number; rotation: number; text: string; attachment: number }[];
  /** arrowheads drawn by a block (DIMLDRBLK, DIMBLK …): tip, direction it points (radians), size and the block's reference */
  arrows?: { x: number; y: number; angle: number; size: number; block: string }[];
  /** DIMCLRD for the lines and arrowheads (ACI, 0 ByBlock: the entity's own colour, 256 ByLayer) */
  color?: number;
  /** a dimension's extension lines, drawn in DIMCLRE (`extensionColor`) */
  extensionLines?: number[][];
  extensionColor?: number;
  /** DIMCLRT for the texts */
  textColor?: number;
}

/** Dimension variables in effect: the entity's XDATA overrides (ACAD DSTYLE), then its DIMSTYLE, then the header, then AutoCAD's defaults. */
export interface DimVars {
  asz: number;
  tsz: number;
  txt: number;
  exo: number;
  exe: number;
  gap: number;
  dec: number;
  zin: number;
  lfac: number;
  /** DIMCLRD, the dimension and leader lines' ACI colour: 0 ByBlock (the entity's own), 256 ByLayer */
  clrd?: number;
  /** DIMCLRE, the extension lines' colour, and DIMCLRT, the text's (same values) */
  clre?: number;
  clrt?: number;
  /** DIMLDRBLK, DIMBLK, DIMBLK1, DIMBLK2: an arrow block's BLOCK_RECORD handle or name ('' AutoCAD's closed filled arrow) */
  ldrblk?: string;
  blk?: string;
  blk1?: string;
  blk2?: string;
  /** DIMSAH: the two ends take DIMBLK1 and DIMBLK2 instead of DIMBLK */
  sah?: number;
}

// DIMSTYLE group codes of the numeric variables, in the table record and in XDATA overrides
const NUMERIC_CODES: Record<number, 'asz' | 'tsz' | 'txt' | 'exo' | 'exe' | 'gap' | 'dec' | 'zin' | 'lfac' | 'clrd' | 'clre' | 'clrt' | 'sah'> = {
  41: 'asz', 142: 'tsz', 140: 'txt', 42: 'exo', 44: 'exe', 147: 'gap', 271: 'dec', 78: 'zin', 144: 'lfac', 176: 'clrd', 177: 'clre', 178: 'clrt', 173: 'sah',
};
// the arrow blocks: by BLOCK_RECORD handle (2000 on: 341–344) or by name (R12: 5–7, no leader block then)
const ARROW_CODES: Record<number, 'ldrblk' | 'blk' | 'blk1' | 'blk2'> = { 341: 'ldrblk', 342: 'blk', 343: 'blk1', 344: 'blk2', 5: 'blk', 6: 'blk1', 7: 'blk2' };

/** A DIMSTYLE record's variables as group codes; what `dimVars` layers over the header. */
export type DimStylePairs = readonly (readonly [number, string | number])[];

export function dimVars(e: Entity, vars: Record<string, string | number>, style?: DimStylePairs): DimVars {
  const metric = Number(vars.$MEASUREMENT ?? 0) === 1;
  const h = (name: string, imperial: number, si: number) => {
    const v = vars[name];
    return v === undefined || !Number.isFinite(Number(v)) ? (metric ? si : imperial) : Number(v);
  };
  const v: DimVars = {
    asz: h('$DIMASZ', 0.18, 2.5), tsz: h('$DIMTSZ', 0, 0), txt: h('$DIMTXT', 0.18, 2.5), exo: h('$DIMEXO', 0.0625, 0.625), exe: h('$DIMEXE', 0.18, 1.25),
    gap: h('$DIMGAP', 0.09, 0.625), dec: h('$DIMDEC', 4, 2), zin: h('$DIMZIN', 0, 8), lfac: h('$DIMLFAC', 1, 1), clrd: h('$DIMCLRD', 0, 0),
    clre: h('$DIMCLRE', 0, 0), clrt: h('$DIMCLRT', 0, 0), sah: h('$DIMSAH', 0, 0),
  };
  for (const [k, name] of [['ldrblk', '$DIMLDRBLK'], ['blk', '$DIMBLK'], ['blk1', '$DIMBLK1'], ['blk2', '$DIMBLK2']] as const) if (vars[name] !== undefined) v[k] = String(vars[name]);
  let scale = h('$DIMSCALE', 1, 1);
  const set = (code: number, value: string | number) => {
    if (code === 40) scale = Number(value);
    else if (NUMERIC_CODES[code] && Number.isFinite(Number(value))) v[NUMERIC_CODES[code]] = Number(value);
    else if (ARROW_CODES[code]) v[ARROW_CODES[code]] = String(value);
  };
  // the named style's record (its 2 and 70 are no variables; 105 its handle, 3 and 4 the texts' prefix)
  // (a record without 105 keeps its handle in 5, which is DIMBLK only in R12's records)
  const r12 = style && !style.some((q) => q[0] === 105);
  if (style) for (const [code, value] of style) if (code !== 5 || r12) set(code, value);
  // XDATA: 1001 ACAD, 1000 DSTYLE, 1002 {, then (1070 code, value) pairs, 1002 }
  const p = e.pairs;
  const start = p.findIndex((q, i) => q[0] === 1000 && q[1] === 'DSTYLE' && p[i - 1]?.[0] === 1001);
  if (start >= 0) {
    for (let i = start + 2; i + 1 < p.length && !(p[i][0] === 1002 && p[i][1] === '}'); i += 2) {
      if (p[i][0] !== 1070) break;
      set(Number(p[i][1]), p[i + 1][1]);
    }
  }
  if (!(scale > 0)) scale = 1; // DIMSCALE 0 means "scale to the viewport": 1 in model space
  for (const k of ['asz', 'tsz', 'txt', 'exo', 'exe', 'gap'] as const) v[k] *= scale;
  return v;
}

/**
 * An arrowhead with its tip at (x, y), pointing along (dx, dy). With a block named (`block`: a BLOCK_RECORD handle or
 * name, which the caller resolves), it is left to the caller as an `arrows` entry; otherwise AutoCAD's closed filled
 * arrow (a triangle as long as DIMASZ and a third of it wide) or, for dimensions with DIMTSZ > 0, an oblique tick.
 */
export function arrowHead(x: number, y: number, dx: number, dy: number, v: DimVars, into: Annotation, block?: string, ticks = true) {
  const l = Math.hypot(dx, dy);
  if (!l) return;
  const ux = dx / l, uy = dy / l;
  if (ticks && v.tsz > 0) {
    const t = v.tsz / 2;
    into.lines.push([x - (ux - uy) * t, y - (uy + ux) * t, x + (ux - uy) * t, y + (uy + ux) * t]);
    return;
  }
  if (block) {
    (into.arrows ??= []).push({ x, y, angle: Math.atan2(uy, ux), size: v.asz, block });
    return;
  }
  const bx = x - ux * v.asz, by = y - uy * v.asz, w = v.asz / 6;
  into.solids.push([x, y, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w]);
}

/**
 * AutoCAD's named arrowheads (`_Dot`, `_ArchTick` …) when the drawing holds no block of that name, drawn as AutoCAD
 * defines them at size 1 (the tip at the origin, pointing along +x), scaled by `size`; false for a name it does not know.
 */
export function namedArrow(name: string, x: number, y: number, angle: number, size: number, into: Annotation): boolean {
  const cos = Math.cos(angle) * size, sin = Math.sin(angle) * size;
  const at = (...local: number[]) => {
    const r: number[] = [];
    for (let i = 0; i < local.length; i += 2) r.push(x + local[i] * cos - local[i + 1] * sin, y + local[i] * sin + local[i + 1] * cos);
    return r;
  };
  const circle = (cx: number, r: number) => at(...Array.from({ length: 33 }, (_, i) => [cx + r * Math.cos((i * Math.PI) / 16), r * Math.sin((i * Math.PI) / 16)]).flat());
  const w = 1 / 6;
  switch (name.replace(/^_/, '').toUpperCase()) {
    case '':
    case 'CLOSEDFILLED':
      into.solids.push(at(0, 0, -1, w, -1, -w));
      return true;
    case 'CLOSEDBLANK':
      into.lines.push(at(0, 0, -1, w, -1, -w, 0, 0));
      return true;
    case 'CLOSED':
      into.lines.push(at(0, 0, -1, w, -1, -w, 0, 0), at(-1, 0, 0, 0));
      return true;
    case 'OPEN':
    case 'OPEN30':
    case 'OPEN90': {
      const half = name.toUpperCase().endsWith('90') ? 1 : name.endsWith('30') ? Math.tan(Math.PI / 12) : w;
      into.lines.push(at(-1, half, 0, 0, -1, -half), at(-1, 0, 0, 0));
      return true;
    }
    case 'ARCHTICK':
    case 'OBLIQUE':
      // (the architectural tick is a heavier stroke in AutoCAD; drawn as the oblique one here)
      into.lines.push(at(-0.5, -0.5, 0.5, 0.5));
      return true;
    case 'DOT':
      into.solids.push(circle(0, 0.25));
      into.lines.push(at(-1, 0, -0.25, 0));
      return true;
    case 'DOTSMALL':
      into.solids.push(circle(0, 1 / 8));
      return true;
    case 'DOTBLANK':
      into.lines.push(circle(0, 0.5), at(-1, 0, -0.5, 0));
      return true;
    case 'SMALL':
      into.lines.push(circle(0, 0.25));
      return true;
    case 'ORIGIN':
      into.lines.push(circle(0, 0.5), at(-1, 0, 0, 0));
      return true;
    case 'ORIGIN2':
      into.lines.push(circle(0, 0.5), circle(0, 0.25), at(-1, 0, -0.5, 0));
      return true;
    case 'BOXFILLED':
      into.solids.push(at(-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5));
      into.lines.push(at(-1, 0, -0.5, 0));
      return true;
    case 'BOXBLANK':
      into.lines.push(at(-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5, -0.5, -0.5), at(-1, 0, -0.5, 0));
      return true;
    case 'DATUMFILLED':
      into.solids.push(at(0, 0.5773503, 0, -0.5773503, -1, 0));
      return true;
    case 'DATUMBLANK':
      into.lines.push(at(0, 0.5773503, 0, -0.5773503, -1, 0, 0, 0.5773503));
      return true;
    case 'NONE':
      return true;
    default:
      return false;
  }
}

export function formatMeasurement(value: number, v: DimVars): string {
  const dec = Math.max(0, Math.min(8, Math.round(v.dec)));
  let s = (value * v.lfac).toFixed(dec);
  if (v.zin & 8 && s.includes('.')) s = s.replace(/\.?0+$/, '');
  if (v.zin & 4 && /^-?0\./.test(s)) s = s.replace(/^(-?)0\./, '$1.');
  return s === '-0' ? '0' : s;
}

/** The text a dimension shows: 1 overrides, `<>` stands for the measurement, a single space hides it. */
function dimText(e: Entity, measured: string): string {
  const t = String(pairValue(e, 1) ?? '');
  if (t === ' ') return '';
  if (!t) return measured;
  return t.includes('<>') ? t.replace('<>', measured) : t;
}

/** The geometry of a DIMENSION that has no block (or whose block is missing). */
export function generateDimension(e: Entity, vars: Record<string, string | number>, style?: DimStylePairs): Annotation {
  const v = dimVars(e, vars, style);
  // the colours AutoCAD gives the parts of the block it generates: dimension line and arrows, extension lines, text
  const out: Annotation = { lines: [], solids: [], texts: [], extensionLines: [], color: v.clrd, extensionColor: v.clre, textColor: v.clrt };
  const n = (c: number) => Number(pairValue(e, c) ?? 0);
  const has = (c: number) => pairValue(e, c) !== undefined;
  // the first and second arrow's block: DIMBLK1 and DIMBLK2 with DIMSAH on, else DIMBLK for both
  const blk1 = v.sah ? v.blk1 : v.blk, blk2 = v.sah ? v.blk2 : v.blk;
  const type = n(70) & 7;
  const P = (c: number): [number, number] => [n(c), n(c + 10)];
  const text = (x: number, y: number, angle: number, s: string) => {
    if (!s) return;
    // read from below or the right: angles kept within (-90°, 90°]
    let deg = (((((angle * 180) / Math.PI) % 180) + 180) % 180);
    if (deg > 90) deg -= 180;
    if (has(53) && n(53)) deg = n(53);
    out.texts.push({ x, y, height: v.txt, rotation: deg, text: s, attachment: has(71) && n(71) ? n(71) : 5 });
  };
  const measuredText = (value: number) => dimText(e, has(42) && n(42) > 0 && type !== 2 && type !== 5 ? formatMeasurement(n(42) / (v.lfac || 1), v) : formatMeasurement(value, v));
  if (type === 0 || type === 1) {
    const [x13, y13] = P(13), [x14, y14] = P(14), [x10, y10] = P(10);
    const ang = type === 0 ? (n(50) * Math.PI) / 180 : Math.atan2(y14 - y13, x14 - x13);
    const ux = Math.cos(ang), uy = Math.sin(ang);
    const proj = (x: number, y: number): [number, number] => {
      const t = (x - x10) * ux + (y - y10) * uy;
      return [x10 + ux * t, y10 + uy * t];
    };
    const d1 = proj(x13, y13), d2 = proj(x14, y14);
    for (const [[ox, oy], [dx, dy]] of [[[x13, y13], d1], [[x14, y14], d2]] as const) {
      const l = Math.hypot(dx - ox, dy - oy);
      if (l <= v.exo) continue;
      const ex = (dx - ox) / l, ey = (dy - oy) / l;
      out.extensionLines!.push([ox + ex * v.exo, oy + ey * v.exo, dx + ex * v.exe, dy + ey * v.exe]);
    }
    out.lines.push([d1[0], d1[1], d2[0], d2[1]]);
    const len = Math.hypot(d2[0] - d1[0], d2[1] - d1[1]);
    // arrows inside when they fit, else outside pointing in
    const inside = len >= 2 * v.asz ? 1 : -1;
    arrowHead(d1[0], d1[1], (d1[0] - d2[0]) * inside, (d1[1] - d2[1]) * inside, v, out, blk1);
    arrowHead(d2[0], d2[1], (d2[0] - d1[0]) * inside, (d2[1] - d1[1]) * inside, v, out, blk2);
    const [tx, ty] = has(11) ? P(11) : [(d1[0] + d2[0]) / 2 - uy * (v.gap + v.txt / 2), (d1[1] + d2[1]) / 2 + ux * (v.gap + v.txt / 2)];
    text(tx, ty, ang, measuredText(len));
  } else if (type === 3 || type === 4) {
    const [cx, cy] = P(10), [px, py] = P(15);
    const [tx, ty] = has(11) ? P(11) : [px, py];
    const r = Math.hypot(px - cx, py - cy);
    if (type === 3) {
      // diameter: 15 and 10 are the two ends
      out.lines.push([px, py, cx, cy]);
      arrowHead(px, py, px - cx, py - cy, v, out, blk1);
      arrowHead(cx, cy, cx - px, cy - py, v, out, blk2);
      text(tx, ty, 0, pairValue(e, 1) ? dimText(e, formatMeasurement(r, v)) : '\u2300' + formatMeasurement(r, v));
    } else {
      // the arrow points from the text to the arc: outwards with the text inside, inwards with it outside
      out.lines.push([tx, ty, px, py]);
      if (Math.hypot(px - tx, py - ty) > 1e-12) arrowHead(px, py, px - tx, py - ty, v, out, blk2);
      else arrowHead(px, py, px - cx, py - cy, v, out, blk2);
      // the R (⌀ above) prefixes the measurement only when the file gives no text of its own
      text(tx, ty, 0, pairValue(e, 1) ? dimText(e, formatMeasurement(r, v)) : 'R' + formatMeasurement(r, v));
    }
  } else if (type === 2 || type === 5) {
    let c: [number, number] | null, a1: number, a2: number, rp: [number, number];
    if (type === 5) {
      c = P(15);
      a1 = Math.atan2(n(23) - c[1], n(13) - c[0]);
      a2 = Math.atan2(n(24) - c[1], n(14) - c[0]);
      rp = P(10);
    } else {
      const [x13, y13] = P(13), [x14, y14] = P(14), [x10, y10] = P(10), [x15, y15] = P(15);
      c = intersect(x13, y13, x14, y14, x15, y15, x10, y10);
      rp = P(16);
      if (!c) return out;
      // each line's ray that points to its far end from the vertex
      const far = (ax: number, ay: number, bx: number, by: number) => (Math.hypot(ax - c![0], ay - c![1]) > Math.hypot(bx - c![0], by - c![1]) ? [ax, ay] : [bx, by]);
      const f1 = far(x13, y13, x14, y14), f2 = far(x10, y10, x15, y15);
      a1 = Math.atan2(f1[1] - c[1], f1[0] - c[0]);
      a2 = Math.atan2(f2[1] - c[1], f2[0] - c[0]);
    }
    const r = Math.hypot(rp[0] - c[0], rp[1] - c[1]);
    const ar = Math.atan2(rp[1] - c[1], rp[0] - c[0]);
    const norm = (a: number) => ((a % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
    // the sector from a1 counter-clockwise to a2 unless the arc point lies in the other one
    let start = a1, sweep = norm(a2 - a1);
    if (norm(ar - a1) > sweep) {
      start = a2;
      sweep = norm(a1 - a2);
    }
    const steps = Math.max(8, Math.ceil(sweep / 0.05));
    const arc: number[] = [];
    for (let i = 0; i <= steps; i++) arc.push(c[0] + r * Math.cos(start + (sweep * i) / steps), c[1] + r * Math.sin(start + (sweep * i) / steps));
    out.lines.push(arc);
    const e0 = start, e1 = start + sweep;
    arrowHead(arc[0], arc[1], Math.sin(e0), -Math.cos(e0), v, out, blk1);
    arrowHead(arc[arc.length - 2], arc[arc.length - 1], -Math.sin(e1), Math.cos(e1), v, out, blk2);
    const mid = start + sweep / 2;
    const [tx, ty] = has(11) ? P(11) : [c[0] + (r + v.gap + v.txt / 2) * Math.cos(mid), c[1] + (r + v.gap + v.txt / 2) * Math.sin(mid)];
    const deg = (sweep * 180) / Math.PI;
    text(tx, ty, mid - Math.PI / 2, dimText(e, `${formatMeasurement(deg / (v.lfac || 1), { ...v, dec: Number(vars.$DIMADEC ?? 0) < 0 ? v.dec : Number(vars.$DIMADEC ?? 0) })}\u00b0`));
  } else if (type === 6) {
    // ordinate: a leader from the feature (13) to the text end (14); 70 bit 64 measures x, else y, from the origin 10
    const [x13, y13] = P(13), [x14, y14] = P(14), [x10, y10] = P(10);
    out.lines.push([x13, y13, x14, y14]);
    const isX = (n(70) & 64) !== 0;
    const [tx, ty] = has(11) ? P(11) : [x14, y14];
    text(tx, ty, isX ? Math.PI / 2 : 0, measuredText(Math.abs(isX ? x13 - x10 : y13 - y10)));
  }
  return out;
}

function intersect(x1: number, y1: number, x2: number, y2: number, x3: number, y3: number, x4: number, y4: number): [number, number] | null {
  const d = (x1 - x2) * (y3 - y4) - (y1 - y2) * (x3 - x4);
  if (Math.abs(d) < 1e-12) return null;
  const a = x1 * y2 - y1 * x2, b = x3 * y4 - y3 * x4;
  return [(a * (x3 - x4) - (x1 - x2) * b) / d, (a * (y3 - y4) - (y1 - y2) * b) / d];
}
