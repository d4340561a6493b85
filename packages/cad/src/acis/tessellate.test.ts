import { describe, expect, it } from 'vitest';
import { boxSolid, coneSolid, cylinderSolid, halfCylinderSolid, sphereSolid, torusSolid, toSab, toSat, type AcisSolid } from '../testing/acis-fixture.ts';
import { parseSab } from './sab.ts';
import { parseSat } from './sat.ts';
import type { AcisModel } from './records.ts';
import { AcisTessellationLimit, tessellateAcis, type AcisMesh } from './tessellate.ts';

const satModel = (s: AcisSolid) => parseSat(toSat(s.records))!;

function bbox(m: AcisMesh) {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < m.positions.length; i += 3)
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k], m.positions[i + k]);
      max[k] = Math.max(max[k], m.positions[i + k]);
    }
  return { min, max };
}

/** the signed volume by the divergence theorem: positive when every triangle faces out */
function volume(m: AcisMesh) {
  let v = 0;
  const p = m.positions, t = m.indices;
  for (let i = 0; i < t.length; i += 3) {
    const [a, b, c] = [t[i] * 3, t[i + 1] * 3, t[i + 2] * 3];
    v += (p[a] * (p[b + 1] * p[c + 2] - p[b + 2] * p[c + 1]) - p[a + 1] * (p[b] * p[c + 2] - p[b + 2] * p[c]) + p[a + 2] * (p[b] * p[c + 1] - p[b + 1] * p[c])) / 6;
  }
  return v;
}

/** every edge used by exactly two triangles, once in each direction (closed and consistently oriented) */
function expectClosed(m: AcisMesh) {
  const directed = new Map<string, number>();
  const t = m.indices;
  for (let i = 0; i < t.length; i += 3)
    for (let k = 0; k < 3; k++) {
      const key = `${t[i + k]},${t[i + ((k + 1) % 3)]}`;
      directed.set(key, (directed.get(key) ?? 0) + 1);
    }
  const bad: string[] = [];
  for (const [key, n] of directed) {
    const [a, b] = key.split(',');
    if (n !== 1 || directed.get(`${b},${a}`) !== 1) bad.push(key);
  }
  expect(bad).toEqual([]);
}

function expectBox(m: AcisMesh, s: AcisSolid, tol: number) {
  const b = bbox(m);
  for (let k = 0; k < 3; k++) {
    expect(Math.abs(b.min[k] - s.bbox.min[k])).toBeLessThanOrEqual(tol);
    expect(Math.abs(b.max[k] - s.bbox.max[k])).toBeLessThanOrEqual(tol);
  }
}

describe('ACIS solids tessellated (planes, cones and cylinders, spheres, tori)', () => {
  it('a box of six planar faces: 12 triangles, closed, its exact bounding box and volume', () => {
    const s = boxSolid([1, 2, 3], [11, 7, 5]);
    const m = tessellateAcis(satModel(s));
    expect(m.indices.length / 3).toBe(12);
    expect(m.lines).toEqual([]);
    expect(m.faces).toEqual({ meshed: 6, asEdges: 0 });
    expectBox(m, s, 1e-12);
    expectClosed(m);
    expect(volume(m)).toBeCloseTo(s.volume, 9);
  });

  it('a cylinder (two planes, one of them used reversed, and a cone surface of sine 0): closed, outward, volume within 1 %', () => {
    const s = cylinderSolid([10, -5, 2], 4, 12);
    const m = tessellateAcis(satModel(s));
    expectBox(m, s, 0.01 * 4);
    expectClosed(m);
    expect(volume(m)).toBeGreaterThan(0);
    expect(Math.abs(volume(m) - s.volume) / s.volume).toBeLessThan(0.01);
    // the default chord tolerance is relative to the solid's size: a scaled cylinder has as many triangles
    const big = tessellateAcis(satModel(cylinderSolid([0, 0, 0], 4000, 12000)));
    expect(big.indices.length).toBe(m.indices.length);
  });

  it('a whole sphere (a face without loops): its bounding box, and volume within 1 %', () => {
    const s = sphereSolid([3, 4, 5], 2.5);
    const m = tessellateAcis(satModel(s));
    expectBox(m, s, 0.01 * 2.5);
    expectClosed(m);
    expect(Math.abs(volume(m) - s.volume) / s.volume).toBeLessThan(0.01);
  });

  it('a cone as AutoCAD writes it (its apex a loop of one edge without a curve) and a whole torus: closed, outward, volume within 1 %', () => {
    for (const s of [coneSolid([5, 5, 0], 5, 15), torusSolid([0, 0, 3], 10, 2)]) {
      const m = tessellateAcis(satModel(s));
      expectBox(m, s, 0.01 * 5);
      expectClosed(m);
      expect(Math.abs(volume(m) - s.volume) / s.volume).toBeLessThan(0.01);
    }
  });

  it('a curved face bounded by loops that do not go around its axis (half a cylinder, as a fillet is): closed, volume within 1 %', () => {
    const s = halfCylinderSolid(3, 7);
    const m = tessellateAcis(satModel(s));
    expect(m.faces).toEqual({ meshed: 4, asEdges: 0 });
    expectBox(m, s, 0.01 * 3);
    expectClosed(m);
    expect(Math.abs(volume(m) - s.volume) / s.volume).toBeLessThan(0.01);
  });

  it('reads the same solids from SAB (AutoCAD 2013 on) as from SAT', () => {
    for (const s of [boxSolid([0, 0, 0], [2, 3, 4]), cylinderSolid([0, 0, 0], 1, 2), sphereSolid([0, 0, 0], 1)]) {
      const sab = parseSab(toSab(s.records));
      expect(sab?.complete).toBe(true);
      const fromSab = tessellateAcis(sab!), fromSat = tessellateAcis(satModel(s));
      expect(fromSab.indices.length).toBe(fromSat.indices.length);
      expect(Array.from(fromSab.positions)).toEqual(Array.from(fromSat.positions));
    }
  });

  it('reads senses written as numbers (the SAT of R13/R14 drawings as LibreDWG gives it)', () => {
    const s = cylinderSolid([0, 0, 0], 2, 3);
    const m = tessellateAcis(parseSat(toSat(s.records, { numericLogicals: true }))!);
    expectClosed(m);
    expect(Math.abs(volume(m) - s.volume) / s.volume).toBeLessThan(0.01);
  });

  it("applies the body's transform (rotation, scale, translation)", () => {
    const s = boxSolid([0, 0, 0], [2, 1, 1]);
    // a quarter turn about z, scale 3, moved by (10, 0, 0): x' = -3y + 10, y' = 3x, z' = 3z
    const sat = toSat(s.records).replace(/^body \$-1 -1 \$-1 \$1 \$-1 \$-1 #/m, `body $-1 -1 $-1 $1 $-1 $${s.records.length} #`).replace('End-of-ACIS-data', 'transform $-1 -1 $-1 0 1 0 -1 0 0 0 0 1 10 0 0 3 rotate no_reflect no_shear #\nEnd-of-ACIS-data');
    const m = tessellateAcis(parseSat(sat)!);
    const b = bbox(m);
    expect(b.min.map((x) => +x.toFixed(9))).toEqual([7, 0, 0]);
    expect(b.max.map((x) => +x.toFixed(9))).toEqual([10, 6, 3]);
    expect(volume(m)).toBeCloseTo(2 * 27, 6);
  });

  it('draws a face on a surface it does not mesh (a spline surface) as its edges', () => {
    const s = boxSolid([0, 0, 0], [1, 1, 1]);
    // the top face's plane turned into a spline surface
    const m = satModel(s);
    const top = m.records.find((r) => r.type === 'plane-surface' && r.data[2]?.k === 'num' && r.data[2].v === 1 && r.data[5]?.k === 'num' && r.data[5].v === 1)!;
    top.type = 'spline-surface';
    const t = tessellateAcis(m);
    expect(t.faces).toEqual({ meshed: 5, asEdges: 1 });
    expect(t.indices.length / 3).toBe(10);
    expect(t.lines).toHaveLength(1);
    expect(t.lines[0].length).toBe(5 * 3);
  });

  it('never throws on damaged records (fields swapped, pointers to anything, numbers out of range) and never loops', () => {
    const s = cylinderSolid([0, 0, 0], 1, 2);
    const base = satModel(s);
    const damages: ((d: AcisModel['records'][number]['data']) => AcisModel['records'][number]['data'])[] = [
      (d) => [...d].reverse(),
      (d) => d.map((t) => (t.k === 'ref' ? { k: 'ref', v: 0 } : t)),
      (d) => d.map((t) => (t.k === 'ref' ? { k: 'ref', v: 10_000 } : t)),
      (d) => d.map((t) => (t.k === 'num' ? { k: 'num', v: 1e300 } : t)),
      (d) => d.map((t) => (t.k === 'num' ? { k: 'num', v: 0 } : t)),
      (d) => d.slice(0, 2),
    ];
    for (let i = 0; i < base.records.length; i++)
      for (const damage of damages) {
        const records = base.records.map((r, k) => (k === i ? { ...r, data: damage(r.data) } : r));
        expect(() => tessellateAcis({ ...base, records }, { maxTriangles: 200_000 })).not.toThrow();
      }
  });

  it('refuses a solid past its triangle cap with a clear error instead of growing without bound', () => {
    const s = sphereSolid([0, 0, 0], 1);
    expect(() => tessellateAcis(satModel(s), { maxTriangles: 100 })).toThrow(AcisTessellationLimit);
    expect(() => tessellateAcis(satModel(s), { maxTriangles: 100 })).toThrow(/more than 100 triangles/);
  });
});
