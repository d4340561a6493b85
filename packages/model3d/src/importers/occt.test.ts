import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { expectModel } from '../fixtures/read-back.ts';
import { brepBox } from '../fixtures/brep.ts';
import { igesBox } from '../fixtures/iges.ts';
import { stepAssembly, stepPart } from '../fixtures/step.ts';

const enc = (s: string) => new TextEncoder().encode(s);

describe('STEP through occt-import-js', () => {
  it('converts a cube: 12 triangles, its bounds, its product name', async () => {
    const t = performance.now();
    const r = await convertToGlb(enc(stepPart({ name: 'Cube', min: [0, 0, 0], max: [10, 10, 10] })), 'cube.stp');
    console.log(`STEP cube: ${Math.round(performance.now() - t)} ms, GLB ${r.glb.length} bytes`);
    await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
    expect(r.tree.map((n) => n.name)).toEqual(['Cube']);
    expect(r.tree[0].properties).toMatchObject({ product: 'Cube' });
    expect(r.stats.upAxis).toBe('Z');
  });

  it('keeps an assembly of two parts as two named nodes under the assembly, each placed', async () => {
    const text = stepAssembly('Gearbox', [
      { name: 'Housing', min: [0, 0, 0], max: [10, 10, 10], at: [0, 0, 0] },
      { name: 'Shaft', min: [0, 0, 0], max: [5, 5, 5], at: [20, 0, 0] },
    ]);
    const t = performance.now();
    const r = await convertToGlb(enc(text), 'gearbox.step');
    console.log(`STEP assembly: ${Math.round(performance.now() - t)} ms`);
    const back = await expectModel(r, 24, [0, 0, 0], [25, 10, 10]);
    expect(r.tree).toHaveLength(1);
    expect(r.tree[0].name).toBe('Gearbox');
    expect(r.tree[0].children.map((c) => [c.name, c.triangles])).toEqual([['Housing', 12], ['Shaft', 12]]);
    const asm = back.doc.getRoot().listNodes().find((n) => n.getName() === 'Gearbox')!;
    expect(asm.listChildren().map((c) => c.getName())).toEqual(['Housing', 'Shaft']);
  });

  it('keeps colours: the solid\'s (in properties and material), and faces coloured apart as meshes of their own', async () => {
    const r = await convertToGlb(enc(stepPart({ name: 'Red', min: [0, 0, 0], max: [1, 1, 1], color: [1, 0, 0], faceColors: { 5: [0, 0, 1] } })), 'red.stp');
    const back = await expectModel(r, 12, [0, 0, 0], [1, 1, 1]);
    expect(r.tree[0].properties).toMatchObject({ product: 'Red', color: '#ff0000' });
    const prims = back.doc.getRoot().listNodes()[r.tree[0].node].getMesh()!.listPrimitives();
    const colors = prims.map((p) => [p.getMaterial()!.getBaseColorFactor().slice(0, 3), p.getIndices()!.getCount() / 3]);
    expect(colors).toEqual([[[1, 0, 0], 10], [[0, 0, 1], 2]]);
  });

  it('IGES: a box of six B-spline surfaces, gathered under the file\'s name', async () => {
    const t = performance.now();
    const r = await convertToGlb(enc(igesBox([0, 0, 0], [3, 4, 5])), 'box.igs');
    console.log(`IGES box: ${Math.round(performance.now() - t)} ms`);
    await expectModel(r, 12, [0, 0, 0], [3, 4, 5]);
    expect(r.tree.map((n) => [n.name, n.children.length, n.triangles])).toEqual([['box', 6, 12]]);
  });

  it('BREP (OpenCascade text): a box solid named after the file', async () => {
    const t = performance.now();
    const r = await convertToGlb(enc(brepBox([-1, -2, -3], [1, 2, 3])), 'block.brep');
    console.log(`BREP box: ${Math.round(performance.now() - t)} ms`);
    await expectModel(r, 12, [-1, -2, -3], [1, 2, 3]);
    expect(r.tree.map((n) => n.name)).toEqual(['block']);
  });

  it('a truncated STEP is bad input', async () => {
    const text = stepPart({ name: 'Cube', min: [0, 0, 0], max: [10, 10, 10] });
    await expect(convertToGlb(enc(text.slice(0, Math.floor(text.length / 2))), 'cube.stp')).rejects.toMatchObject({ kind: 'bad-input' });
  });

  it('refuses a STEP above the WebAssembly size limit before reading it', async () => {
    const text = stepPart({ name: 'Cube', min: [0, 0, 0], max: [10, 10, 10] });
    await expect(convertToGlb(enc(text), 'cube.stp', { limits: { maxWasmInputBytes: 1000 } })).rejects.toMatchObject({ kind: 'too-large' });
  });
});
