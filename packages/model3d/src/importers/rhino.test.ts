import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import type { ModelNode } from '../glb/finish.ts';
import { expectModel } from '../fixtures/read-back.ts';
import { rhinoFile } from '../fixtures/rhino.ts';

const names = (n: ModelNode): unknown => (n.children.length ? { [n.name]: n.children.map(names) } : n.name);

describe('3DM through rhino3dm', () => {
  it('layers as nodes (sublayers nested), a mesh, a brep through its render meshes, one without them through its planar faces, colours and layers in properties', async () => {
    const bytes = await rhinoFile();
    const t = performance.now();
    const r = await convertToGlb(bytes, 'house.3dm');
    console.log(`3DM: ${Math.round(performance.now() - t)} ms (${bytes.length} bytes)`);
    const back = await expectModel(r, 36, [0, 0, 0], [10, 10, 6]);
    expect(r.stats.upAxis).toBe('Z');
    expect(r.tree.map(names)).toEqual([{ house: [{ Building: ['Slab', { Doors: ['Door', 'Unmeshed', 'Ball'] }] }] }]);
    // the sphere saved without render meshes has no planar face to mesh
    expect(r.tree[0].properties).toEqual({ objectsWithoutRenderMesh: 1 });
    const building = r.tree[0].children[0];
    const [slab, doors] = building.children;
    expect(slab).toMatchObject({ triangles: 12, properties: { type: 'Mesh', layer: 'Building', color: '#0000ff' } });
    expect(doors.properties).toMatchObject({ layer: 'Building::Doors', color: '#00ff00' });
    expect(doors.children[0]).toMatchObject({ triangles: 12, properties: { type: 'Brep', layer: 'Building::Doors', color: '#ff0000' } });
    // the box without render meshes: its six planar faces triangulated here, outward (its volume is positive)
    const [, unmeshed, ball] = doors.children;
    expect(unmeshed).toMatchObject({ triangles: 12, properties: { type: 'Brep', meshedFromPlanarFaces: true } });
    expect(ball).toMatchObject({ triangles: 0, properties: { type: 'Brep', curvedFacesWithoutMesh: 1 } });
    const prim = back.doc.getRoot().listNodes()[unmeshed.node].getMesh()!.listPrimitives()[0];
    const pos = prim.getAttribute('POSITION')!;
    const idx = prim.getIndices()!;
    let volume = 0;
    for (let i = 0; i < idx.getCount(); i += 3) {
      const [a, b, c] = [0, 1, 2].map((k) => pos.getElement(idx.getScalar(i + k), []));
      volume += (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) / 6;
    }
    expect(volume).toBeGreaterThan(0);
    const door = back.doc.getRoot().listNodes()[doors.children[0].node];
    expect(door.getMesh()!.listPrimitives()[0].getMaterial()!.getBaseColorFactor()).toEqual([1, 0, 0, 1]);
  });

  it('bytes that are not a 3DM are bad input', async () => {
    await expect(convertToGlb(new TextEncoder().encode('not a rhino file at all'), 'x.3dm')).rejects.toMatchObject({ kind: 'bad-input' });
  });
});
