import { describe, expect, it } from 'vitest';
import { BoxGeometry, BufferGeometry, Float32BufferAttribute } from 'three';
import { angleAt, closestOnSegment, closestOnSegmentToRay, faceAngle, formatAngle, snapPoint, type Vec3 } from './measure3d.ts';
import { featureEdges, SegmentGrid } from './feature-edges.ts';

// a camera looking down −Z at 100 px per unit, origin at (200, 200) (orthographic: the pick ray is along −Z)
const project = (p: Vec3): [number, number] => [200 + p[0] * 100, 200 - p[1] * 100];
const near = (a: Vec3, b: Vec3, eps = 1e-9) => a.every((v, i) => Math.abs(v - b[i]) < eps);

describe('angles', () => {
  it('the angle at the apex of three points, in degrees', () => {
    expect(angleAt([1, 0, 0], [0, 0, 0], [0, 1, 0])).toBeCloseTo(90, 10);
    expect(angleAt([10, 0, 0], [0, 0, 0], [3, 3, 0])).toBeCloseTo(45, 10);
    // the apex is the middle point: a box corner seen from an adjacent corner is not 90°
    expect(angleAt([0, 0, 0], [1, 0, 0], [1, 1, 0])).toBeCloseTo(90, 10);
    expect(angleAt([0, 0, 0], [1, 1, 0], [1, 0, 0])).toBeCloseTo(45, 10);
    expect(angleAt([2, 0, 0], [0, 0, 0], [-1, 0, 0])).toBeCloseTo(180, 10);
    expect(angleAt([1, 2, 3], [0, 0, 0], [2, 4, 6])).toBeCloseTo(0, 10);
    // a 60° wedge in 3D, off the axes
    expect(angleAt([1 + 5, 2, 3], [5, 2, 3], [5 + 0.5, 2 + Math.sqrt(3) / 2, 3])).toBeCloseTo(60, 10);
    expect(angleAt([0, 0, 0], [0, 0, 0], [1, 0, 0])).toBeNull();
  });

  it('exact near 0° (where acos of a dot product loses digits)', () => {
    expect(angleAt([1, 1e-7, 0], [0, 0, 0], [1, 0, 0])).toBeCloseTo((1e-7 * 180) / Math.PI, 15);
  });

  it('the angle between two faces is 0–90° whichever way their normals point', () => {
    expect(faceAngle([0, 0, 1], [1, 0, 0])).toBeCloseTo(90, 10);
    const s = Math.SQRT1_2;
    // a wedge's slope against its base, outward normals: 135° between them, 45° between the faces
    expect(faceAngle([s, 0, s], [0, 0, -1])).toBeCloseTo(45, 10);
    expect(faceAngle([s, 0, s], [0, 0, 1])).toBeCloseTo(45, 10);
    expect(faceAngle([0, 1, 0], [0, -1, 0])).toBeCloseTo(0, 10);
    expect(formatAngle(45)).toBe('45.00°');
    expect(formatAngle(89.996)).toBe('90.00°');
  });
});

describe('the closest point on an edge', () => {
  it('to a point: the foot of the perpendicular, clamped to the ends', () => {
    expect(closestOnSegment([5, 3, 0], [0, 0, 0], [10, 0, 0])).toEqual([5, 0, 0]);
    expect(closestOnSegment([-4, 3, 1], [0, 0, 0], [10, 0, 0])).toEqual([0, 0, 0]);
    expect(closestOnSegment([14, -3, 0], [0, 0, 0], [10, 0, 0])).toEqual([10, 0, 0]);
    expect(closestOnSegment([1, 1, 1], [2, 2, 2], [2, 2, 2])).toEqual([2, 2, 2]);
  });

  it('to a pick ray: where the line of sight passes nearest', () => {
    // looking down −Z at (3, 0.1): the edge along X at y = 0, z = 1 is nearest at x = 3
    expect(near(closestOnSegmentToRay([3, 0.1, 10], [0, 0, -1], [0, 0, 1], [10, 0, 1]), [3, 0, 1])).toBe(true);
    // a slanted ray (perspective) crossing the edge's line at x = 4: the ray from (0, 0, 8) towards (4, 0, 0)
    expect(near(closestOnSegmentToRay([0, 0, 8], [4, 0, -8], [0, 0, 0], [10, 0, 0]), [4, 0, 0])).toBe(true);
    // an edge along the ray: its end nearest the camera
    expect(near(closestOnSegmentToRay([0, 0, 10], [0, 0, -1], [0, 0, 2], [0, 0, 5]), [0, 0, 5])).toBe(true);
    // beyond the edge's end: clamped
    expect(near(closestOnSegmentToRay([12, 0, 10], [0, 0, -1], [0, 0, 0], [10, 0, 0]), [10, 0, 0])).toBe(true);
    // an edge behind the camera: the point nearest the camera, not one on the ray's backward line
    expect(near(closestOnSegmentToRay([0, 0, 0], [0, 0, -1], [-1, 0, 5], [1, 0, 7]), [-1, 0, 5])).toBe(true);
  });
});

describe('snapping: vertex first, then edge, then face', () => {
  const edges: [Vec3, Vec3][] = [[[0, 0, 0], [1, 0, 0]], [[1, 0, 0], [1, 1, 0]]];
  const vertices: Vec3[] = [[0, 0, 0], [1, 0, 0], [1, 1, 0]];
  const at = (x: number, y: number, extra: Partial<Parameters<typeof snapPoint>[0]> = {}) =>
    snapPoint({ pointer: project([x, y, 0]), origin: [x, y, 10], dir: [0, 0, -1], hit: [x, y, 0], vertices, edges, project, ...extra });

  it('a vertex within the snap distance wins over an edge that is nearer', () => {
    // 5 px from the vertex (1, 0), 3 px from the edge x = 1
    expect(at(0.97, 0.04)).toEqual({ point: [1, 0, 0], kind: 'vertex' });
  });
  it('near an edge, away from its ends: the edge point under the pointer', () => {
    const s = at(0.5, 0.05);
    expect(s.kind).toBe('edge');
    expect(near(s.point, [0.5, 0, 0])).toBe(true);
    // the nearer of two edges
    const t = at(0.96, 0.5);
    expect(t.kind).toBe('edge');
    expect(near(t.point, [1, 0.5, 0])).toBe(true);
  });
  it('farther than the snap distance (8 px; 16 for a finger): the face point', () => {
    expect(at(0.5, 0.1)).toEqual({ point: [0.5, 0.1, 0], kind: 'face' });
    expect(at(0.5, 0.1, { px: 16 }).kind).toBe('edge');
  });
  it('points the section plane cuts away are not snapped to', () => {
    const kept = (p: Vec3) => p[0] < 0.9;
    expect(at(0.97, 0.04, { kept }).kind).toBe('face');
    expect(at(0.5, 0.05, { kept }).kind).toBe('edge');
  });
});

describe('feature edges', () => {
  const lengths = (g: BufferGeometry) => {
    const p = g.getAttribute('position');
    const out: number[] = [];
    for (let i = 0; i < p.count; i += 2) out.push(Math.hypot(p.getX(i + 1) - p.getX(i), p.getY(i + 1) - p.getY(i), p.getZ(i + 1) - p.getZ(i)));
    return out.sort((a, b) => a - b);
  };

  it("a box's 12 edges, not its faces' diagonals; the same object the second time", () => {
    const box = new BoxGeometry(4, 2, 1);
    const { geometry } = featureEdges(box);
    expect(lengths(geometry)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4]);
    expect(featureEdges(box).geometry).toBe(geometry);
  });

  it('a fold sharper than 30° is an edge, a gentler one is not; open borders are edges', () => {
    // two unit squares (two triangles each) hinged along x = 0 … 1 at y = 0, the second tilted by `deg`
    const folded = (deg: number) => {
      const r = (deg * Math.PI) / 180;
      const q: Vec3 = [0, -Math.cos(r), Math.sin(r)];
      const v: Vec3[] = [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, q[1], q[2]], [1, q[1], q[2]]];
      const tris = [[0, 1, 2], [0, 2, 3], [0, 4, 5], [0, 5, 1]];
      const g = new BufferGeometry();
      g.setAttribute('position', new Float32BufferAttribute(tris.flat().flatMap((i) => v[i]), 3));
      return g;
    };
    // flat: the 6 border edges; folded by 45°: and the hinge
    expect(featureEdges(folded(10)).grid.count).toBe(6);
    expect(featureEdges(folded(45)).grid.count).toBe(7);
  });

  it('the grid finds every segment passing near a point, as a look at all of them does', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const n = 3000;
    const seg = new Float32Array(n * 6);
    for (let i = 0; i < n; i++) {
      const a = [rand() * 100, rand() * 100, rand() * 10];
      const len = i % 50 === 0 ? 200 : 2; // a few long ones (across many cells)
      const b = [a[0] + (rand() - 0.5) * len, a[1] + (rand() - 0.5) * len, a[2] + (rand() - 0.5) * len];
      seg.set([...a, ...b], i * 6);
    }
    const grid = new SegmentGrid(seg);
    for (let q = 0; q < 60; q++) {
      // random points, and the middles of long segments (kept in the grid's list for all queries)
      const p: Vec3 = q % 3 ? [rand() * 100, rand() * 100, rand() * 10] : (grid.segment(q * 50).reduce<number[]>((m, e) => m.map((v, k) => v + e[k] / 2), [0, 0, 0]) as unknown as Vec3);
      const r = q % 10 === 0 ? 20 : 1.5;
      const found = new Set(grid.near(p, r));
      // fewer than all for a small radius: the grid does prune
      if (r < 2) expect(found.size).toBeLessThan(n / 4);
      for (let s = 0; s < n; s++) {
        const [a, b] = grid.segment(s);
        const c = closestOnSegment(p, a, b);
        if (Math.hypot(c[0] - p[0], c[1] - p[1], c[2] - p[2]) <= r) expect(found.has(s)).toBe(true);
      }
    }
  });
});
