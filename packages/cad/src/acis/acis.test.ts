import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf, type FixtureEntity, type Pairs } from '../testing/dxf-writer.ts';
import { flattenModelSpace } from '../geometry/flatten.ts';
import { withAcdsData } from '../testing/acis-fixture.ts';
import { parseSab } from './sab.ts';
import { decodeDxfSat, parseSat } from './sat.ts';

/** SAT text as DXF stores it: each line one group 1, every character but the space as 159 − its code, ^ as "^ ". */
function satPairs(sat: string): Pairs {
  return sat
    .trim()
    .split('\n')
    .map((line): [number, string] => [1, [...line.trim()].map((c) => (c === ' ' ? ' ' : String.fromCharCode(159 - c.charCodeAt(0)))).join('').replaceAll('^', '^ ')]);
}

const modeler = (type: string, sat: string, handle = 'A1'): FixtureEntity => ({ type, pairs: [[5, handle], [8, '0'], [100, 'AcDbEntity'], [100, 'AcDbModelerGeometry'], [70, 1], ...satPairs(sat)] });

/** A 10 × 10 square region in ACIS 1.6 SAT (R13/R14): one header line, records with the attribute pointer only. */
const SQUARE_106 = `
106 16 1 0
body $-1 $1 $-1 $-1 #
lump $-1 $-1 $2 $0 #
shell $-1 $-1 $-1 $3 $1 #
face $-1 $-1 $4 $2 $-1 $-1 forward double out #
loop $-1 $-1 $-1 $3 #
edge $-1 $9 $10 $-1 $13 forward #
edge $-1 $10 $11 $-1 $14 forward #
edge $-1 $11 $12 $-1 $15 forward #
edge $-1 $12 $9 $-1 $16 forward #
vertex $-1 $5 $17 #
vertex $-1 $6 $18 #
vertex $-1 $7 $19 #
vertex $-1 $8 $20 #
straight-curve $-1 0 0 0 1 0 0 #
straight-curve $-1 10 0 0 0 1 0 #
straight-curve $-1 10 10 0 -1 0 0 #
straight-curve $-1 0 10 0 0 -1 0 #
point $-1 0 0 0 #
point $-1 10 0 0 #
point $-1 10 10 0 #
point $-1 0 10 0 #
`;

/**
 * ACIS 7 SAT (AutoCAD 2004–2010): three header lines, records with attribute, id and one more pointer. A full
 * circle (centre 10,20, radius 5) and a quadratic B-spline edge (a Bézier from 0,0 over 5,10 to 10,0) whose knots
 * ACIS writes without their outer ones ("0 2 1 2").
 */
const CURVES_700 = `
700 0 1 0
@7 unknown @12 ACIS 7.0 NT @24 Fri Nov 27 05:00:00 2026
1 9.9999999999999995e-007 1e-010
body $-1 -1 $-1 $1 $-1 $-1 #
lump $-1 -1 $-1 $-1 $2 $0 #
shell $-1 -1 $-1 $-1 $-1 $-1 $-1 $1 #
edge $-1 -1 $-1 $4 0 $4 6.283185307179586 $-1 $5 forward @7 unknown #
vertex $-1 -1 $-1 $3 $6 #
ellipse-curve $-1 -1 $-1 10 20 0 0 0 1 5 0 0 1 I I #
point $-1 -1 $-1 15 20 0 #
edge $-1 -1 $-1 $8 0 $9 1 $-1 $10 forward @7 unknown #
vertex $-1 -1 $-1 $7 $11 #
vertex $-1 -1 $-1 $7 $12 #
intcurve-curve $-1 -1 $-1 forward { exactcur full nubs 2 open 2 0 2 1 2 0 0 0 5 10 0 10 0 0 0 null_surface null_surface nullbs nullbs I I } I I #
point $-1 -1 $-1 0 0 0 #
point $-1 -1 $-1 10 0 0 #
End-of-ACIS-data
`;

/** SAB bytes (ACIS 218, AutoCAD 2013): one straight edge from 0,0,0 to 10,0,0 and a zero-length one. */
function sabLine(): Uint8Array {
  const b: number[] = [];
  const bytes = (s: string) => [...new TextEncoder().encode(s)];
  const i32 = (v: number) => {
    const d = new DataView(new ArrayBuffer(4));
    d.setInt32(0, v, true);
    return [...new Uint8Array(d.buffer)];
  };
  const f64 = (...vs: number[]) =>
    vs.flatMap((v) => {
      const d = new DataView(new ArrayBuffer(8));
      d.setFloat64(0, v, true);
      return [...new Uint8Array(d.buffer)];
    });
  const str = (s: string) => [0x07, s.length, ...bytes(s)];
  const name = (...parts: string[]) => parts.flatMap((p, k) => [k === parts.length - 1 ? 0x0d : 0x0e, p.length, ...bytes(p)]);
  const ptr = (v: number) => [0x0c, ...i32(v)];
  const prefix = [...ptr(-1), 0x04, ...i32(-1), ...ptr(-1)];
  const rec = (...parts: number[][]) => b.push(...parts.flat(), 0x11);
  b.push(...bytes('ACIS BinaryFile'), ...i32(21800), ...i32(0), ...i32(1), ...i32(0));
  b.push(...str('unknown'), ...str('ACIS 218.00 NT'), ...str('Fri Nov 27 05:00:00 2026'));
  for (const v of [1, 1e-6, 1e-10]) b.push(0x06, ...f64(v));
  rec(name('body'), prefix, ptr(-1), ptr(-1), ptr(-1)); // 0
  rec(name('edge'), prefix, ptr(2), [0x06, ...f64(0)], ptr(3), [0x06, ...f64(10)], ptr(-1), ptr(4), [0x0b], str('unknown')); // 1
  rec(name('vertex'), prefix, ptr(1), [0x04, ...i32(0)], ptr(5)); // 2
  rec(name('vertex'), prefix, ptr(1), [0x04, ...i32(0)], ptr(6)); // 3
  rec(name('straight', 'curve'), prefix, [0x13, ...f64(0, 0, 0)], [0x14, ...f64(1, 0, 0)], [0x0b], [0x0b]); // 4
  rec(name('point'), prefix, [0x13, ...f64(0, 0, 0)]); // 5
  rec(name('point'), prefix, [0x13, ...f64(10, 0, 0)]); // 6
  rec(name('edge'), prefix, ptr(2), [0x06, ...f64(0)], ptr(2), [0x06, ...f64(0)], ptr(-1), ptr(-1), [0x0b], str('unknown')); // 7
  b.push(...name('End', 'of', 'ACIS', 'data'));
  return Uint8Array.from(b);
}

const segments = (points: number[]) => points.length / 2 - 1;

describe('ACIS data drawn as a wireframe (REGION, 3DSOLID, BODY, surfaces)', () => {
  it('reads ACIS 1.6 SAT (R13/R14: one header line) and draws the edges of a region', () => {
    const f = flattenModelSpace(parseDxf(writeAsciiDxf({ entities: [modeler('REGION', SQUARE_106)] })));
    expect(f.skipped).toEqual({});
    expect(f.polylines.map((p) => p.points).sort()).toEqual([[0, 0, 10, 0], [0, 10, 0, 0], [10, 0, 10, 10], [10, 10, 0, 10]].sort());
  });

  it('draws circles and B-spline edges of ACIS 7 SAT, and the surfaces made of it (PLANESURFACE …)', () => {
    const f = flattenModelSpace(parseDxf(writeAsciiDxf({ entities: [modeler('3DSOLID', CURVES_700), modeler('PLANESURFACE', CURVES_700, 'A2')] })), { tolerance: 0.001 });
    expect(f.skipped).toEqual({});
    const ofEntity = (i: number) => f.polylines.filter((p) => p.entity === i).map((p) => p.points);
    for (const i of [0, 1]) {
      const [circle, spline] = ofEntity(i);
      expect(segments(circle)).toBeGreaterThan(32);
      for (let k = 0; k < circle.length; k += 2) expect(Math.hypot(circle[k] - 10, circle[k + 1] - 20)).toBeCloseTo(5, 9);
      // the Bézier: its ends on the vertices, its middle (t = 0.5) at 5,5
      expect(spline.slice(0, 2)).toEqual([0, 0]);
      expect(spline.slice(-2)).toEqual([10, 0]);
      const mid = spline.length / 2 - (spline.length / 2) % 2;
      expect(spline[mid]).toBeCloseTo(5, 6);
      expect(spline[mid + 1]).toBeCloseTo(5, 6);
    }
  });

  it('draws a whole sphere or torus (a face without edges) by its outline seen from above', () => {
    const sat = (surface: string) => `
700 0 1 0
@7 unknown @12 ACIS 7.0 NT @24 Fri Nov 27 05:00:00 2026
1 9.9999999999999995e-007 1e-010
body $-1 -1 $-1 $1 $-1 $-1 #
lump $-1 -1 $-1 $-1 $2 $0 #
shell $-1 -1 $-1 $-1 $-1 $3 $-1 $1 #
face $-1 -1 $-1 $-1 $-1 $2 $-1 $4 forward single #
${surface}
End-of-ACIS-data`;
    const f = flattenModelSpace(parseDxf(writeAsciiDxf({ entities: [
      modeler('3DSOLID', sat('sphere-surface $-1 -1 $-1 5 5 0 3 1 0 0 0 0 1 forward_v I I I I #')),
      modeler('3DSOLID', sat('torus-surface $-1 -1 $-1 0 0 0 0 0 1 10 2 1 0 0 forward_v I I I I #'), 'A2'),
    ] })), { tolerance: 0.001 });
    expect(f.skipped).toEqual({});
    const radii = f.polylines.map((p) => {
      const [cx, cy] = p.entity === 0 ? [5, 5] : [0, 0];
      const r = p.points.filter((_, k) => k % 2 === 0).map((x, k) => Math.hypot(x - cx, p.points[2 * k + 1] - cy));
      expect(Math.max(...r) - Math.min(...r)).toBeLessThan(1e-9);
      return +r[0].toFixed(9);
    });
    expect(radii).toEqual([3, 12, 8]);
  });

  it('reads SAB from the ACDSDATA section (AutoCAD 2013 on) by the entity handle', () => {
    const sab = sabLine();
    expect(parseSab(sab)?.records.map((r) => r.type)).toEqual(['body', 'edge', 'vertex', 'vertex', 'straight-curve', 'point', 'point', 'edge']);
    const solid: FixtureEntity = { type: '3DSOLID', pairs: [[5, '2E1'], [8, '0'], [100, 'AcDbEntity'], [100, 'AcDbModelerGeometry'], [290, 1], [2, '{00000000-0000-0000-0000-000000000000}'], [100, 'AcDb3dSolid'], [350, 0]] };
    const d = parseDxf(withAcdsData(writeAsciiDxf({ version: 'AC1027', entities: [solid] }), [['2E1', sab]]));
    const f = flattenModelSpace(d);
    expect(f.skipped).toEqual({});
    // the zero-length edge draws nothing
    expect(f.polylines.map((p) => p.points)).toEqual([[0, 0, 10, 0]]);
  });

  it('draws nothing of ACIS data cut short (no end marker, fewer records than declared) and counts the entity as not drawn', () => {
    // SAT without its last point and end marker: its circle alone could still be drawn, a different shape
    const cutSat = CURVES_700.trim().split('\n').slice(0, -2).join('\n');
    // SAB without its end marker: its first edge alone could still be drawn
    const sab = sabLine();
    const cutSab = sab.subarray(0, sab.length - 22);
    expect(parseSab(cutSab)).toMatchObject({ complete: false });
    expect(parseSab(sab)).toMatchObject({ complete: true });
    const solid: FixtureEntity = { type: '3DSOLID', pairs: [[5, '2E1'], [8, '0'], [100, 'AcDbEntity'], [100, 'AcDbModelerGeometry'], [290, 1], [100, 'AcDb3dSolid'], [350, 0]] };
    const d = parseDxf(withAcdsData(writeAsciiDxf({ version: 'AC1027', entities: [modeler('BODY', cutSat, 'A1'), solid] }), [['2E1', cutSab]]));
    const f = flattenModelSpace(d);
    expect(f.polylines).toEqual([]);
    expect(f.skipped).toEqual({ BODY: 1, '3DSOLID': 1 });
    // whole SAT without an end marker but with as many records as its header declares (R13/R14 SQUARE_106) still draws
    expect(parseSat(decodeDxfSat(satPairs(SQUARE_106).map((p) => String(p[1]))))).toMatchObject({ complete: true });
  });

  it('keeps counting as not drawn an entity whose ACIS data is absent or damaged, and never throws on it', () => {
    const broken = [modeler('3DSOLID', '700 0 1 0\nnot sat at all'), modeler('BODY', CURVES_700.replaceAll('$', '%'), 'A2'), { type: 'REGION', pairs: [[5, 'A3'], [8, '0']] } as FixtureEntity];
    const f = flattenModelSpace(parseDxf(writeAsciiDxf({ entities: broken })));
    expect(f.skipped).toEqual({ '3DSOLID': 1, BODY: 1, REGION: 1 });
    // truncated SAB and SAT never throw
    const sab = sabLine();
    for (let n = 0; n < sab.length; n += 7) expect(() => parseSab(sab.subarray(0, n))).not.toThrow();
    const sat = decodeDxfSat(satPairs(CURVES_700).map((p) => String(p[1])));
    for (let n = 0; n < sat.length; n += 13) expect(() => parseSat(sat.slice(0, n))).not.toThrow();
  });
});
