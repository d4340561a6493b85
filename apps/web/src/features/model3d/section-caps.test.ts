import { describe, expect, it } from 'vitest';
import { BoxGeometry, Group, Mesh, MeshBasicMaterial, Plane, Vector3 } from 'three';
import { SectionCaps } from './section-caps.ts';

describe('section caps', () => {
  it('two stencil writers per shown mesh (back faces add, front faces take away), none for hidden ones; the cap lies in the plane on its kept side; nothing without a plane', () => {
    const model = new Group();
    const a = new Mesh(new BoxGeometry(2, 2, 2), new MeshBasicMaterial());
    const b = new Mesh(new BoxGeometry(2, 2, 2), new MeshBasicMaterial());
    b.position.x = 5;
    const hidden = new Mesh(new BoxGeometry(), new MeshBasicMaterial());
    hidden.visible = false;
    model.add(a, b, hidden);
    const caps = new SectionCaps();
    // keeps x < 1 (normal −x, constant 1)
    const plane = new Plane(new Vector3(-1, 0, 0), 1);
    caps.update(model, plane, new Vector3(2.5, 0, 0), 4);
    expect(caps.group.visible).toBe(true);
    const [writers, cap] = caps.group.children as [Group, Mesh];
    expect(writers.children).toHaveLength(4);
    const w = writers.children as Mesh[];
    expect(w.map((m) => m.geometry)).toEqual([a.geometry, a.geometry, b.geometry, b.geometry]);
    expect(w[2].matrixWorld.elements[12]).toBe(5);
    // a box has a group per face: a stencil material for each
    const mat = (m: Mesh) => ([] as MeshBasicMaterial[]).concat(m.material as MeshBasicMaterial)[0];
    expect((w[0].material as MeshBasicMaterial[]).length).toBe(6);
    expect(new Set(w.slice(0, 2).map((m) => mat(m).stencilZPass)).size).toBe(2);
    for (const m of w) expect(mat(m).colorWrite).toBe(false);
    // the cap: drawn after the writers, in the plane (a hair into the kept side), facing along it
    expect(cap.renderOrder).toBeGreaterThan(w[0].renderOrder);
    expect(plane.distanceToPoint(cap.position)).toBeGreaterThan(0);
    expect(plane.distanceToPoint(cap.position)).toBeLessThan(1e-3);
    const facing = new Vector3(0, 0, 1).applyQuaternion(cap.quaternion);
    expect(Math.abs(facing.dot(plane.normal))).toBeCloseTo(1, 6);
    // hidden afterwards: its writers go at the next update; no plane: no caps
    b.visible = false;
    caps.update(model, plane, new Vector3(), 4);
    expect(writers.children).toHaveLength(2);
    caps.update(model, null, new Vector3(), 4);
    expect(caps.group.visible).toBe(false);
    expect(writers.children).toHaveLength(0);
  });
});
