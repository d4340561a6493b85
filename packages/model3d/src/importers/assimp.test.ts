import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { tdsCube, threeMfCube } from '../fixtures/exchange.ts';

// (a cube in each of FBX, DAE, 3DS and 3MF: formats.test.ts)
describe('assimpjs formats keep their object names', () => {
  it('a 3MF object\'s name (XML-escaped) and a 3DS object\'s name name the nodes assimp calls Object_<id> and 3DSMesh_<n>', async () => {
    const mf = await convertToGlb(threeMfCube(undefined, 'Pump & "Valve"'), 'pump.3mf');
    expect(mf.tree[0].children.map((c) => c.name)).toEqual(['Pump & "Valve"']);
    const tds = await convertToGlb(tdsCube(undefined, 'Chair01'), 'chair.3ds');
    expect(tds.tree[0].children.map((c) => c.name)).toEqual(['Chair01']);
  });
});
