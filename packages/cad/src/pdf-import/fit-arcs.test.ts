import { describe, expect, it } from 'vitest';
import { fitSubpath } from './fit-arcs.ts';
import type { Pt, Subpath } from './page-content.ts';

const K = 0.5522847498;
/** a quarter circle as one Bézier, centre c, radius r, from angle a0 to a0 ± 90° */
function quarter(c: Pt, r: number, a0: number, ccw: boolean): { from: Pt; seg: Subpath['segs'][number] } {
  const a1 = a0 + (ccw ? Math.PI / 2 : -Math.PI / 2);
  const p = (a: number): Pt => [c[0] + r * Math.cos(a), c[1] + r * Math.sin(a)];
  const t = (a: number, s: number): Pt => [-Math.sin(a) * s * K * r, Math.cos(a) * s * K * r];
  const s = ccw ? 1 : -1;
  const [p0, p1] = [p(a0), p(a1)];
  const [t0, t1] = [t(a0, s), t(a1, s)];
  return { from: p0, seg: { kind: 'C', c1: [p0[0] + t0[0], p0[1] + t0[1]], c2: [p1[0] - t1[0], p1[1] - t1[1]], to: p1 } };
}

describe('Béziers fitted to arcs', () => {
  it('a clockwise quarter is the counter-clockwise ARC from its other end', () => {
    const q = quarter([10, 10], 5, Math.PI / 2, false); // from 90° down to 0°
    const f = fitSubpath({ start: q.from, segs: [q.seg], closed: false }, 0.01);
    expect(f.kind).toBe('arc');
    if (f.kind !== 'arc') return;
    expect([f.cx, f.cy, f.r].map((v) => +v.toFixed(4))).toEqual([10, 10, 5]);
    expect(f.start).toBeCloseTo(0, 4);
    expect(f.end).toBeCloseTo(Math.PI / 2, 4);
  });

  it('four clockwise quarters closed are a CIRCLE; an ellipse-like curve is not an arc', () => {
    const segs = [0, 1, 2, 3].map((i) => quarter([0, 0], 2, -i * (Math.PI / 2), false));
    const f = fitSubpath({ start: segs[0].from, segs: segs.map((q) => q.seg), closed: true }, 0.01);
    expect(f).toMatchObject({ kind: 'circle' });
    if (f.kind === 'circle') expect(f.r).toBeCloseTo(2, 4);
    // the same quarter stretched 2:1 in x: no circle fits it within the tolerance
    const q = quarter([0, 0], 2, 0, true);
    const stretch = (p: Pt): Pt => [p[0] * 2, p[1]];
    const seg = q.seg.kind === 'C' ? { kind: 'C' as const, c1: stretch(q.seg.c1), c2: stretch(q.seg.c2), to: stretch(q.seg.to) } : q.seg;
    const e = fitSubpath({ start: stretch(q.from), segs: [seg], closed: false }, 0.01);
    expect(e.kind).toBe('polyline');
    if (e.kind === 'polyline') expect(e.vertices.every((v) => v.bulge === 0)).toBe(true);
  });

  it('a polyline with a fitted corner carries the bulge on the vertex before it, negative when clockwise', () => {
    const q = quarter([0, 0], 1, Math.PI / 2, false); // (0,1) → (1,0) clockwise
    const f = fitSubpath({ start: [-1, 1], segs: [{ kind: 'L', to: q.from }, q.seg, { kind: 'L', to: [1, -1] }], closed: false }, 0.01);
    expect(f.kind).toBe('polyline');
    if (f.kind !== 'polyline') return;
    expect(f.vertices.map((v) => +v.bulge.toFixed(4))).toEqual([0, -+Math.tan(Math.PI / 8).toFixed(4), 0, 0]);
  });

  it('with splines, curves no arc fits are a spline of their own control points; lines among them a chain of polylines and splines', () => {
    const q = quarter([0, 0], 2, 0, true);
    const stretch = (p: Pt): Pt => [p[0] * 2, p[1]];
    if (q.seg.kind !== 'C') throw new Error('a curve');
    const seg = { kind: 'C' as const, c1: stretch(q.seg.c1), c2: stretch(q.seg.c2), to: stretch(q.seg.to) };
    const f = fitSubpath({ start: stretch(q.from), segs: [seg], closed: false }, 0.01, true);
    expect(f).toEqual({ kind: 'spline', controls: [stretch(q.from), seg.c1, seg.c2, seg.to], closed: false });
    // closed by `h` short of its start: the gap is a straight cubic (thirds along it) back to the start
    const g = fitSubpath({ start: [0, 0], segs: [{ kind: 'C', c1: [1, 2], c2: [2, -2], to: [3, 0] }], closed: true }, 0.01, true);
    expect(g).toEqual({ kind: 'spline', controls: [[0, 0], [1, 2], [2, -2], [3, 0], [2, 0], [1, 0], [0, 0]], closed: true });
    // a circle is still a circle with splines asked for
    const circle = [0, 1, 2, 3].map((i) => quarter([0, 0], 2, i * (Math.PI / 2), true));
    expect(fitSubpath({ start: circle[0].from, segs: circle.map((c) => c.seg), closed: true }, 0.01, true).kind).toBe('circle');
    // a line before the curve: a chain, the line then the spline of the curve's own control points
    expect(fitSubpath({ start: [-1, 0], segs: [{ kind: 'L', to: stretch(q.from) }, seg], closed: false }, 0.01, true)).toEqual({
      kind: 'chain', parts: [{ kind: 'line', a: [-1, 0], b: stretch(q.from) }, { kind: 'spline', controls: [stretch(q.from), seg.c1, seg.c2, seg.to], closed: false }],
    });
    // closed: the chain starts where the curve ends, its straight runs (the closing one included) one polyline
    const tri = fitSubpath({ start: [0, 0], segs: [{ kind: 'L', to: [4, 0] }, { kind: 'C', c1: [5, 1], c2: [3, 2], to: [4, 4] }, { kind: 'L', to: [0, 4] }], closed: true }, 0.01, true);
    expect(tri).toEqual({
      kind: 'chain', parts: [
        { kind: 'polyline', vertices: [{ x: 4, y: 4, bulge: 0 }, { x: 0, y: 4, bulge: 0 }, { x: 0, y: 0, bulge: 0 }, { x: 4, y: 0, bulge: 0 }], closed: false },
        { kind: 'spline', controls: [[4, 0], [5, 1], [3, 2], [4, 4]], closed: false },
      ],
    });
  });
});
