/**
 * The maths of calibrating a PDF by one known distance (issue 17 part 5): clicks on the rendered page (CSS pixels of
 * pdf.js's viewport) to PDF user space (points, y up) and back, the page's path vertices a click snaps to, and the
 * `options.calibrate` the server takes. No pdf.js here: the dialog passes its viewport's transform and operator list.
 */
export type Pt = [number, number];
/** an affine transform as pdf.js writes it: [a, b, c, d, e, f] maps (x, y) to (a·x + c·y + e, b·x + d·y + f) */
export type Transform = [number, number, number, number, number, number] | number[];

export const LENGTH_UNITS = { mm: 1, cm: 10, m: 1000 } as const;
export type LengthUnit = keyof typeof LENGTH_UNITS;

/** PDF user space → viewport pixels (pdf.js's `viewport.convertToViewportPoint`). */
export function viewportPointAt(t: Transform, x: number, y: number): Pt {
  return [t[0] * x + t[2] * y + t[4], t[1] * x + t[3] * y + t[5]];
}

/** Viewport pixels → PDF user space (pdf.js's `viewport.convertToPdfPoint`): the inverse of the viewport's transform. */
export function pdfPointAt(t: Transform, px: number, py: number): Pt {
  const det = t[0] * t[3] - t[1] * t[2];
  const x = px - t[4], y = py - t[5];
  return [(t[3] * x - t[2] * y) / det, (t[0] * y - t[1] * x) / det];
}

const multiply = (m: Transform, n: Transform): Transform => [
  m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3], m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3], m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5],
];

/** pdf.js's operator numbers the walk needs (`OPS` of pdfjs-dist) */
export interface PathOps {
  save: number;
  restore: number;
  transform: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  constructPath: number;
}

/**
 * The end points of every path segment on a page, in PDF user space: what a click snaps to. Walks the operator list
 * (page.getOperatorList()) keeping the current transform through q/Q, cm and form matrices; a path arrives as one
 * `constructPath` whose buffer holds the segments (pdf.js ≥ 4.6: moveTo 0, lineTo 1, curveTo 2, quadraticCurveTo 3,
 * closePath 4). At most `max` points (a huge plot snaps to its first ones rather than stalling the dialog).
 */
export function pathVertices(list: { fnArray: number[]; argsArray: unknown[] }, OPS: PathOps, max = 200_000): Pt[] {
  const out: Pt[] = [];
  let ctm: Transform = [1, 0, 0, 1, 0, 0];
  const stack: Transform[] = [];
  for (let k = 0; k < list.fnArray.length && out.length < max; k++) {
    const fn = list.fnArray[k];
    const args = (list.argsArray[k] ?? []) as unknown[];
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.transform) ctm = multiply(Array.isArray(args[0]) || ArrayBuffer.isView(args[0]) ? Array.from(args[0] as ArrayLike<number>) : (args as number[]), ctm);
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      const m = args[0];
      if (m && (Array.isArray(m) || ArrayBuffer.isView(m))) ctm = multiply(Array.from(m as ArrayLike<number>), ctm);
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? ctm;
    else if (fn === OPS.constructPath) {
      const data = (args[1] as unknown[] | undefined)?.[0] as ArrayLike<number> | null | undefined;
      if (!data) continue;
      for (let i = 0; i < data.length; ) {
        const cmd = data[i++];
        const take = cmd === 0 || cmd === 1 ? 2 : cmd === 2 ? 6 : cmd === 3 ? 4 : cmd === 4 ? 0 : -1;
        if (take < 0) break;
        if (take) out.push(viewportPointAt(ctm, data[i + take - 2], data[i + take - 1]));
        i += take;
      }
    }
  }
  return out;
}

/** The vertex nearest to (x, y) within `radius`, all in the same units (viewport pixels), or null. */
export function nearestVertex(points: Pt[], x: number, y: number, radius: number): Pt | null {
  let best: Pt | null = null, bestD = radius;
  for (const p of points) {
    const d = Math.hypot(p[0] - x, p[1] - y);
    if (d <= bestD) [best, bestD] = [p, d];
  }
  return best;
}

/**
 * `options.calibrate` from two points in PDF user space and the true length between them in a unit; undefined until
 * both points differ and the length is positive.
 */
export function calibrationOf(from: Pt | null, to: Pt | null, length: number | null, unit: LengthUnit): { from: Pt; to: Pt; mm: number } | undefined {
  if (!from || !to || !length || !(length > 0) || Math.hypot(to[0] - from[0], to[1] - from[1]) < 1e-6) return undefined;
  const round = (p: Pt): Pt => [Math.round(p[0] * 1e4) / 1e4, Math.round(p[1] * 1e4) / 1e4];
  return { from: round(from), to: round(to), mm: length * LENGTH_UNITS[unit] };
}

/** The distance between two PDF points as the PDF's own millimetres (1 pt = 25.4 / 72 mm). */
export const pdfMillimetres = (a: Pt, b: Pt) => (Math.hypot(b[0] - a[0], b[1] - a[1]) * 25.4) / 72;
