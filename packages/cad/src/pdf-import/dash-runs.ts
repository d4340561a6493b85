import type { Pt, Shape } from './page-content.ts';

/**
 * Dashed lines as a CAD plot writes them: AutoCAD and most plotters draw a linetype as its dashes, one short stroke
 * each, not as a PDF dash array. Consecutive strokes of one style that lie on one line, one after another, with
 * lengths and gaps that repeat (a period of one to four dash-gap pairs, at least two periods) become one line with
 * that pattern as its dash array, so the drawing gets one LINE with a linetype instead of hundreds of pieces.
 * The first and last dash may be shorter than the pattern's (the plotter cut them at the line's ends).
 */
export function joinDashRuns(all: Shape[]): Shape[] {
  // a path of many lone strokes (one `m l m l …` per linetype, as many plotters write it) is as many pieces: each
  // becomes a LINE of its own anyway
  const shapes = all.flatMap((s) => (s.subpaths.length > 1 && s.stroke && !s.fill && s.subpaths.every((sp) => !sp.closed && sp.segs.length === 1 && sp.segs[0].kind === 'L') ? s.subpaths.map((sp) => ({ ...s, subpaths: [sp] })) : [s]));
  const out: Shape[] = [];
  let i = 0;
  while (i < shapes.length) {
    const run = runFrom(shapes, i);
    if (run.length >= MIN_DASHES) {
      const joined = asDashedLine(run.map((k) => shapes[k]));
      if (joined) {
        out.push(...joined);
        i += run.length;
        continue;
      }
    }
    out.push(shapes[i]);
    i++;
  }
  return out;
}

const MIN_DASHES = 5;
/** lengths agree within this (points) or 2 % */
const tolOf = (v: number) => Math.max(0.05, Math.abs(v) * 0.02);

/** a lone straight stroke: the piece of a plotted linetype */
function piece(s: Shape): [Pt, Pt] | null {
  if (!s.stroke || s.fill || s.dash || s.subpaths.length !== 1) return null;
  const sp = s.subpaths[0];
  if (sp.closed || sp.segs.length !== 1 || sp.segs[0].kind !== 'L') return null;
  return [sp.start, sp.segs[0].to];
}

/** the shapes from `i` on that continue one line in one style */
function runFrom(shapes: Shape[], i: number): number[] {
  const first = shapes[i];
  const p = piece(first);
  if (!p) return [i];
  const [a, b] = p;
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (len === 0) return [i];
  const ux = (b[0] - a[0]) / len, uy = (b[1] - a[1]) / len;
  const run = [i];
  let end = len; // along the line, from a
  for (let k = i + 1; k < shapes.length; k++) {
    const s = shapes[k];
    if (s.strokeColor !== first.strokeColor || s.lineWidth !== first.lineWidth || s.layer !== first.layer) break;
    const q = piece(s);
    if (!q) break;
    const t0 = (q[0][0] - a[0]) * ux + (q[0][1] - a[1]) * uy, t1 = (q[1][0] - a[0]) * ux + (q[1][1] - a[1]) * uy;
    const off = Math.max(Math.abs(-(q[0][0] - a[0]) * uy + (q[0][1] - a[1]) * ux), Math.abs(-(q[1][0] - a[0]) * uy + (q[1][1] - a[1]) * ux));
    // on the line, pointing the same way, after the last piece (a gap of zero or more)
    if (off > 0.02 || t1 < t0 || t0 < end - 1e-3) break;
    run.push(k);
    end = t1;
  }
  return run;
}

/** the pieces as one dashed line (after a cut first dash), when their dashes and gaps repeat; else null */
function asDashedLine(pieces: Shape[]): Shape[] | null {
  const segs = pieces.map((s) => piece(s)!);
  const [a, b0] = segs[0];
  const len0 = Math.hypot(b0[0] - a[0], b0[1] - a[1]);
  const ux = (b0[0] - a[0]) / len0, uy = (b0[1] - a[1]) / len0;
  const along = (p: Pt) => (p[0] - a[0]) * ux + (p[1] - a[1]) * uy;
  const dashes = segs.map(([p, q]) => along(q) - along(p));
  const gaps = segs.slice(1).map(([p], k) => along(p) - along(segs[k][1]));
  // a solid line drawn in pieces is not dashed
  if (gaps.every((g) => g < 0.05)) return null;
  const n = segs.length;
  for (let period = 1; period <= 4 && period * 2 <= n - 2; period++) {
    // the pattern from the second period on (the first dash may be cut short); both ends may be shorter
    const base = period;
    const d = dashes.slice(base, base + period), g = gaps.slice(base, base + period);
    if (g.length < period) continue;
    let ok = true;
    for (let k = 1; k < n - 1 && ok; k++) {
      const j = (k - base + period * 8) % period;
      if (Math.abs(dashes[k] - d[j]) > tolOf(d[j])) ok = false;
    }
    for (let k = 0; k < gaps.length && ok; k++) {
      const j = (k - base + period * 8) % period;
      if (Math.abs(gaps[k] - g[j]) > tolOf(g[j])) ok = false;
    }
    // the ends: no longer than their place in the pattern
    const jFirst = (0 - base + period * 8) % period, jLast = (n - 1 - base + period * 8) % period;
    if (ok && dashes[0] <= d[jFirst] + tolOf(d[jFirst]) && dashes[n - 1] <= d[jLast] + tolOf(d[jLast])) {
      // a pattern runs from a whole dash: a first dash the plotter cut short stays a stroke of its own, the line
      // starts at the next; a cut last dash is where the pattern meets the line's end anyway
      const from = dashes[0] < d[jFirst] - tolOf(d[jFirst]) ? 1 : 0;
      const j0 = (from - base + period * 8) % period;
      const pattern: number[] = [];
      for (let k = 0; k < period; k++) pattern.push(d[(j0 + k) % period], g[(j0 + k) % period]);
      const line: Shape = { ...pieces[from], subpaths: [{ start: segs[from][0], segs: [{ kind: 'L', to: segs[n - 1][1] }], closed: false }], dash: pattern };
      return from ? [pieces[0], line] : [line];
    }
  }
  return null;
}
