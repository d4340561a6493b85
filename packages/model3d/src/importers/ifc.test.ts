import { getBounds } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import type { ModelNode } from '../glb/finish.ts';
import { ifcWallAndDoor } from '../fixtures/ifc.ts';
import { expectModel, readBack } from '../fixtures/read-back.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const names = (n: ModelNode): unknown => (n.children.length ? { [n.name]: n.children.map(names) } : n.name);

describe('IFC through web-ifc', () => {
  it('a wall and a door: the spatial structure as the tree, property sets and quantities in extras, Y up', async () => {
    const t = performance.now();
    const r = await convertToGlb(enc(ifcWallAndDoor()), 'house.ifc');
    console.log(`IFC wall+door: ${Math.round(performance.now() - t)} ms, GLB ${r.glb.length} bytes`);
    // web-ifc turns IFC's Z up to Y up: the wall's 5 m along x, 3 m up along y, 0.2 m thick along -z
    const back = await expectModel(r, 24, [0, 0, -0.2], [5, 3, 0]);
    expect(r.stats.upAxis).toBe('Y');
    expect(r.tree.map(names)).toEqual([{ House: [{ Site: [{ 'Building A': [{ 'Ground floor': ['Wall 1', 'Door 1'] }] }] }] }]);
    const storey = r.tree[0].children[0].children[0].children[0];
    expect(storey.properties).toMatchObject({ type: 'IfcBuildingStorey' });
    const [wall, door] = storey.children;
    expect(wall).toMatchObject({ triangles: 12, properties: { type: 'IfcWall', Pset_WallCommon: { IsExternal: true, FireRating: 'EI 60' }, Qto_WallBaseQuantities: { Length: 5, GrossVolume: 3 } } });
    expect(door).toMatchObject({ triangles: 12, properties: { type: 'IfcDoor', Pset_DoorCommon: { Reference: 'D-01' } } });
    // the properties are in the GLB itself, for the viewer's property panel
    const doorNode = back.doc.getRoot().listNodes()[door.node];
    expect(doorNode.getExtras()).toMatchObject({ properties: { Pset_DoorCommon: { Reference: 'D-01' } } });
    expect((await readBack(r.glb)).bbox.max[1]).toBeCloseTo(3, 2);
  });

  it('elements placing one representation share one mesh in the GLB (instances), each at its place', async () => {
    const r = await convertToGlb(enc(ifcWallAndDoor({ secondDoor: true })), 'doors.ifc');
    const back = await expectModel(r, 36, [0, 0, -0.2], [5, 3, 0]);
    const [, door1, door2] = r.tree[0].children[0].children[0].children[0].children;
    expect([door1.name, door2.name]).toEqual(['Door 1', 'Door 2']);
    const nodes = back.doc.getRoot().listNodes();
    expect(nodes[door1.node].getMesh()).toBe(nodes[door2.node].getMesh());
    expect(back.doc.getRoot().listMeshes()).toHaveLength(2);
    // door 2 stands 2 m further along x than door 1
    const x = (n: number) => getBounds(nodes[n]).min[0];
    expect(x(door2.node) - x(door1.node)).toBeCloseTo(2, 3);
  });

  it('a cyclic aggregation (the building aggregating its site) is bad input naming the entity', async () => {
    await expect(convertToGlb(enc(ifcWallAndDoor({ cyclic: true })), 'cyclic.ifc')).rejects.toMatchObject({ kind: 'bad-input', message: expect.stringMatching(/cyclic: #\d+ contains itself/) });
  });

  it('placements that place each other are broken by web-ifc: the conversion ends with the model', async () => {
    // placements that place each other (storey in wall, wall in storey): web-ifc breaks the loop, the conversion ends
    const loop = ifcWallAndDoor().replace('#51=IFCLOCALPLACEMENT(#41,#21);', '#51=IFCLOCALPLACEMENT(#101,#21);');
    expect((await convertToGlb(enc(loop), 'loop.ifc')).stats.triangles).toBe(24);
  });

  it('a truncated IFC and non-IFC text are bad input', async () => {
    const text = ifcWallAndDoor();
    await expect(convertToGlb(enc(text.slice(0, 400)), 'cut.ifc')).rejects.toMatchObject({ kind: 'bad-input' });
    await expect(convertToGlb(enc('hello'), 'x.ifc')).rejects.toMatchObject({ kind: 'bad-input' });
  });
});
