import { Document } from '@gltf-transform/core';
import { draco } from '@gltf-transform/functions';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { convertToGlb } from '../convert.ts';
import { gltfIO } from '../glb/finish.ts';
import sharp from 'sharp';
import { asciiPly, asciiStl, binaryPly, binaryStl, cube, mtl, obj, off, texturedObj } from '../fixtures/mesh.ts';
import { expectModel, readBack } from '../fixtures/read-back.ts';

const enc = (s: string) => new TextEncoder().encode(s);
const draco3d = createRequire(import.meta.url)('draco3d') as { createEncoderModule(): Promise<unknown> };
const timed = async <T>(label: string, f: () => Promise<T>): Promise<T> => {
  const t = performance.now();
  const r = await f();
  console.log(`${label}: ${Math.round(performance.now() - t)} ms`);
  return r;
};

describe('mesh formats', () => {
  it('STL, ASCII and binary: a cube', async () => {
    for (const [label, bytes] of [['ASCII STL', enc(asciiStl())], ['binary STL', binaryStl()]] as const) {
      const r = await timed(label, () => convertToGlb(bytes, 'box.stl'));
      await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
      expect(r.tree.map((n) => n.name)).toEqual(['box']);
    }
  });

  it('OBJ with its MTL given beside it: objects as named nodes, colours from the MTL (a texture map not given leaves the colour)', async () => {
    const r = await timed('OBJ+MTL', () => convertToGlb(enc(obj()), 'box.obj', { extraFiles: { 'cube.mtl': enc(mtl) } }));
    const back = await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
    expect(r.tree[0].name).toBe('box');
    expect(r.tree[0].children.map((c) => [c.name, c.triangles])).toEqual([['Bottom', 2], ['Top', 10]]);
    const colors = back.doc.getRoot().listNodes().filter((n) => n.getMesh()).map((n) => n.getMesh()!.listPrimitives()[0].getMaterial()!.getBaseColorFactor().slice(0, 3));
    expect(colors).toEqual([[1, 0, 0], [0, 0, 1]]);
  });

  it('OBJ textures: a map_Kd given beside the OBJ is embedded (PNG, TEXCOORD_0 with v down); a missing one leaves the colour', async () => {
    const { obj: text, mtl: lib } = texturedObj();
    // a 2 × 2 PNG: top row red, bottom row blue
    const png = new Uint8Array(await sharp(Buffer.from([255, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255]), { raw: { width: 2, height: 2, channels: 3 } }).png().toBuffer());
    const r = await convertToGlb(enc(text), 'crate.obj', { extraFiles: { 'textured.mtl': enc(lib), 'wood.png': png } });
    const back = await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
    expect(r.tree[0].children.map((c) => c.name)).toEqual(['Top', 'Sides']);
    const root = back.doc.getRoot();
    expect(root.listTextures()).toHaveLength(1);
    expect(root.listTextures()[0].getMimeType()).toBe('image/png');
    expect(Buffer.from(root.listTextures()[0].getImage()!).equals(Buffer.from(png))).toBe(true);
    const primOf = (name: string) => root.listNodes().find((n) => n.getName() === name)!.getMesh()!.listPrimitives()[0];
    const top = primOf('Top');
    expect(top.getMaterial()!.getBaseColorTexture()).toBe(root.listTextures()[0]);
    const uv = top.getAttribute('TEXCOORD_0')!;
    const pos = top.getAttribute('POSITION')!;
    // the top's four corners: u grows with x; glTF's v runs down the image, so v falls as y (OBJ's v) grows
    // (positions are quantized, scaled by the node: compared by order, not value)
    const corners = Array.from({ length: uv.getCount() }, (_, i) => ({ p: pos.getElement(i, []), t: uv.getElement(i, []).map((c) => Math.round(c * 100) / 100) }));
    expect(new Set(corners.map((c) => c.t.join(',')))).toEqual(new Set(['0,1', '1,1', '1,0', '0,0']));
    for (const a of corners) for (const b of corners) {
      if (a.p[0] < b.p[0]) expect(a.t[0]).toBeLessThan(b.t[0]);
      if (a.p[1] < b.p[1]) expect(a.t[1]).toBeGreaterThan(b.t[1]);
    }
    // the image that is not there: the material's colour, no texture, and nothing else breaks
    const sides = primOf('Sides');
    expect(sides.getMaterial()!.getBaseColorTexture()).toBeNull();
    expect(sides.getMaterial()!.getBaseColorFactor().slice(0, 3)).toEqual([0, 1, 0]);
    // a map in a format glTF does not embed (BMP) is left out the same way
    const bmp = await convertToGlb(enc(text), 'crate.obj', { extraFiles: { 'textured.mtl': enc(lib), 'wood.png': enc('BM not a png') } });
    expect((await readBack(bmp.glb)).doc.getRoot().listTextures()).toHaveLength(0);
  });

  it('OBJ without its MTL still converts (grey)', async () => {
    const r = await convertToGlb(enc(obj()), 'box.obj');
    await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
  });

  it('PLY, ASCII and binary: a cube', async () => {
    for (const [label, bytes] of [['ASCII PLY', enc(asciiPly())], ['binary PLY', binaryPly()]] as const) {
      const r = await timed(label, () => convertToGlb(bytes, 'box.ply'));
      await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
    }
  });

  it('PLY vertex colours are kept (COLOR_0, on a white material)', async () => {
    const colors = cube().vertices.map((v) => (v[2] ? [255, 0, 0] : [0, 0, 255]));
    const r = await convertToGlb(enc(asciiPly(cube(), colors)), 'scan.ply');
    const back = await expectModel(r, 12, [0, 0, 0], [10, 10, 10]);
    const prim = back.doc.getRoot().listMeshes()[0].listPrimitives()[0];
    expect(prim.getMaterial()!.getBaseColorFactor()).toEqual([1, 1, 1, 1]);
    const pos = prim.getAttribute('POSITION')!;
    const col = prim.getAttribute('COLOR_0')!;
    expect(col.getCount()).toBe(pos.getCount());
    // top corners red, bottom blue (positions quantized: z is the largest or smallest of its accessor)
    const zs = Array.from({ length: pos.getCount() }, (_, i) => pos.getElement(i, [])[2]);
    const top = Math.max(...zs);
    for (let i = 0; i < pos.getCount(); i++) {
      const c = col.getElement(i, []).map((v) => Math.round(v * 100) / 100);
      expect(c).toEqual(zs[i] === top ? [1, 0, 0] : [0, 0, 1]);
    }
  });

  it('many small objects (over a thousand) are quantized and compressed without reordering, names and places kept', async () => {
    const lines: string[] = [];
    for (let i = 0; i < 1200; i++) {
      const x = (i % 40) * 2;
      const y = Math.floor(i / 40) * 2;
      lines.push(`o Part${i}`, `v ${x} ${y} 0`, `v ${x + 1} ${y} 0`, `v ${x} ${y + 1} 1`, `f ${i * 3 + 1} ${i * 3 + 2} ${i * 3 + 3}`);
    }
    const r = await timed('OBJ of 1200 objects', () => convertToGlb(enc(lines.join('\n')), 'parts.obj'));
    const back = await expectModel(r, 1200, [0, 0, 0], [79, 59, 1]);
    expect(back.extensions).toContain('KHR_mesh_quantization');
    expect(r.tree[0].children).toHaveLength(1200);
    expect(r.tree[0].children[1199].name).toBe('Part1199');
  });

  it('OFF with quads: a cube of 12 triangles', async () => {
    const r = await timed('OFF', () => convertToGlb(enc(off(cube(4, [1, 2, 3]))), 'box.off'));
    await expectModel(r, 12, [1, 2, 3], [5, 6, 7]);
  });

  it('glTF and GLB pass through: names, hierarchy and extras kept, compressed with meshopt', async () => {
    const doc = new Document();
    const buffer = doc.createBuffer();
    const c = cube(2);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(Float32Array.from(c.vertices.flat())).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(Uint16Array.from(c.triangles.flat())).setBuffer(buffer));
    const part = doc.createNode('Bolt').setMesh(doc.createMesh('bolt').addPrimitive(prim)).setTranslation([10, 0, 0]).setExtras({ properties: { material: 'steel' } });
    doc.createScene('s').addChild(doc.createNode('Fixture').addChild(part));
    doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]);
    const io = await gltfIO();
    const glb = await io.writeBinary(doc);
    const r = await timed('GLB pass-through', () => convertToGlb(glb, 'fixture.glb'));
    await expectModel(r, 12, [10, 0, 0], [12, 2, 2]);
    expect(r.tree[0]).toMatchObject({ name: 'Fixture', children: [{ name: 'Bolt', properties: { material: 'steel' } }] });
    // .gltf with its .bin given beside it
    const { json, resources } = await io.writeJSON(doc, { basename: 'fixture' });
    const g = await convertToGlb(enc(JSON.stringify(json)), 'fixture.gltf', { extraFiles: resources });
    await expectModel(g, 12, [10, 0, 0], [12, 2, 2]);
    // a GLB we wrote (meshopt) converts again
    await expectModel(await convertToGlb(r.glb, 'again.glb'), 12, [10, 0, 0], [12, 2, 2]);
    await expect(convertToGlb(enc(JSON.stringify(json)), 'fixture.gltf')).rejects.toMatchObject({ kind: 'bad-input' });
  });

  it('a Draco-compressed GLB is decoded and re-compressed with meshopt', async () => {
    const c = cube(3);
    const doc = new Document();
    const buffer = doc.createBuffer();
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(Float32Array.from(c.vertices.flat())).setBuffer(buffer))
      .setIndices(doc.createAccessor().setType('SCALAR').setArray(Uint16Array.from(c.triangles.flat())).setBuffer(buffer));
    // (no default scene: the converted GLB gets one)
    doc.createScene('s').addChild(doc.createNode('Crate').setMesh(doc.createMesh('crate').addPrimitive(prim)));
    const io = (await gltfIO()).registerDependencies({ 'draco3d.encoder': await draco3d.createEncoderModule() });
    await doc.transform(draco({ quantizePosition: 14 }));
    const glb = await io.writeBinary(doc);
    expect(new TextDecoder().decode(glb.subarray(0, 4000))).toContain('"extensionsRequired":["KHR_draco_mesh_compression"]');
    const r = await convertToGlb(glb, 'crate.glb');
    const back = await expectModel(r, 12, [0, 0, 0], [3, 3, 3], 1e-3);
    expect(back.extensions).not.toContain('KHR_draco_mesh_compression');
    expect(r.tree[0].name).toBe('Crate');
  });
});
