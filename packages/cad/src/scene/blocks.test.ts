import { describe, expect, it } from 'vitest';
import { parseDxf } from '../dxf/reader.ts';
import { writeAsciiDxf } from '../testing/dxf-writer.ts';
import { blockFixtureDxf } from '../testing/block-fixture.ts';
import { diffPrims, areaBy, sceneSegments, sceneTriangles } from '../testing/scene-geometry.ts';
import { flattenLayout } from '../geometry/layout.ts';
import { expandFlatBlocks } from '../geometry/block-instances.ts';
import { renderSvg } from '../render/svg.ts';
import { compileScene } from './compile.ts';
import { decodeScene, encodeScene } from './binary.ts';
import { entityBounds, pickEntity } from './pick.ts';
import { expandBlockInstances, nearestBlockVertex } from './block-query.ts';
import type { Scene } from './scene.types.ts';

const d = parseDxf(blockFixtureDxf(1000));
const flatInstanced = flattenLayout(d, 'Model', { blockInstances: true })!;
const flatBaked = flattenLayout(d, 'Model')!;
const compile = (flat = flatInstanced, blockInstances = true) => compileScene(d, flat, { layout: 'Model', layouts: ['Model'], blockInstances });
const instanced = compile();
const baked = compile(flatBaked);
const extent = Math.hypot(baked.meta.bounds.maxX - baked.meta.bounds.minX, baked.meta.bounds.maxY - baked.meta.bounds.minY);
const handleOf = (s: Scene, entity: number) => s.meta.entities[entity]?.handle;
const entityOf = (s: Scene, handle: string) => s.meta.entities.findIndex((e) => e.handle === handle);

/** Drawing point of mesh vertex `v` (of the line positions) placed by instance `i`. */
function placed(s: Scene, i: number, v: number): [number, number] {
  const I = s.blockInstances, L = s.blockLinePositions;
  const x = L[v * 2], y = L[v * 2 + 1];
  return [I[i * 8] * x + I[i * 8 + 2] * y + I[i * 8 + 4] + s.meta.origin[0], I[i * 8 + 1] * x + I[i * 8 + 3] * y + I[i * 8 + 5] + s.meta.origin[1]];
}

describe('block instancing: the flattener', () => {
  it('places every INSERT cell that is a rotation / mirror / scale of its block, and bakes the others', () => {
    const b = flatInstanced.blocks!;
    // 1000 inserts + 20 MINSERT cells + the one mirrored by its extrusion + the two with attributes; not: the
    // tilted extrusion, the one with an extension dictionary, the one on the layer that is off
    expect(b.instances.length).toBe(1023);
    const byHandle = (h: string) => flatInstanced.entities.findIndex((e) => e.handle === h);
    const instancedEntities = new Set(b.instances.map((i) => i.entity));
    expect(instancedEntities.has(byHandle('A3'))).toBe(false); // tilted
    expect(instancedEntities.has(byHandle('A4'))).toBe(false); // extension dictionary
    expect(b.instances.filter((i) => i.entity === byHandle('A0')).length).toBe(20); // the MINSERT's cells
    expect(instancedEntities.has(byHandle('A2'))).toBe(true); // extrusion 0,0,-1
    expect(flatInstanced.omitted).toEqual({ INSERT: 1 }); // on the layer that is off
    // variants: 2 layers × 3 ByBlock colours × ByBlock linetype / lineweight mixes × 3 scale classes (|1,1|, |2,0.5|, |1.5,1.5|: SYM has arcs)
    expect(b.meshes.length).toBeLessThan(40);
  });

  it('bakes back to exactly the flattening without instances: same polylines in the same order, same texts and counts', () => {
    const back = expandFlatBlocks(flatInstanced);
    expect(back.polylines.length).toBe(flatBaked.polylines.length);
    let worst = 0;
    back.polylines.forEach((p, i) => {
      const q = flatBaked.polylines[i];
      expect({ ...p, points: p.points.length, holes: p.holes?.length }).toEqual({ ...q, points: q.points.length, holes: q.holes?.length });
      for (let k = 0; k < p.points.length; k++) worst = Math.max(worst, Math.abs(p.points[k] - q.points[k]));
    });
    expect(worst).toBeLessThan(1e-9 * extent);
    // texts (the block's TEXT and the attributes) stay world-space runs, identical
    expect(flatInstanced.texts).toEqual(flatBaked.texts);
    expect(flatInstanced.texts.filter((t) => t.text === 'S').length).toBe(1000 + 20 + 1 + 1 + 1 + 2);
    expect(flatInstanced.entities).toEqual(flatBaked.entities);
    expect(flatInstanced.skipped).toEqual(flatBaked.skipped);
  });

  it('shares one unit-scale mesh across scales only where that scale flattens to the same geometry scaled', () => {
    const dd = parseDxf(writeAsciiDxf({
      layers: ['0', 'A'],
      blocks: [
        { name: 'STRAIGHT', base: [1, 1], entities: [{ type: 'LWPOLYLINE', pairs: [[8, '0'], [90, 3], [70, 1], [10, 0], [20, 0], [10, 10], [20, 0], [10, 5], [20, 8]] }] },
        { name: 'ROUND', entities: [{ type: 'CIRCLE', pairs: [[8, '0'], [10, 0], [20, 0], [40, 5]] }] },
      ],
      entities: [[1, 1], [2, 0.5], [-3, 3], [2, 0.5]].flatMap(([sx, sy], i) => ['STRAIGHT', 'ROUND'].map((name) => ({ type: 'INSERT', pairs: [[8, 'A'], [2, name], [10, i * 50], [20, 0], [41, sx], [42, sy], [50, i * 30]] as [number, number | string][] }))),
    }));
    const f = flattenLayout(dd, 'Model', { blockInstances: true })!;
    const meshesOf = (name: string) => new Set(f.blocks!.instances.filter((i) => f.blocks!.meshes[i.mesh].block === name).map((i) => i.mesh));
    // straight lines: one mesh, the instances carry the scale (a non-uniform one and a mirror too)
    expect(meshesOf('STRAIGHT').size).toBe(1);
    // a circle is tessellated for the size it is drawn at: one mesh per |scale|
    expect(meshesOf('ROUND').size).toBe(3);
    const back = expandFlatBlocks(f), ref = flattenLayout(dd, 'Model')!;
    expect(back.polylines.map((p) => p.points.length)).toEqual(ref.polylines.map((p) => p.points.length));
    back.polylines.forEach((p, i) => p.points.forEach((v, k) => expect(Math.abs(v - ref.polylines[i].points[k])).toBeLessThan(1e-9)));
  });

  it('flattens again without instances when charging them would run a budget out (what baking would have drawn)', () => {
    const limited = flattenLayout(d, 'Model', { blockInstances: true, maxEntities: 3000 })!;
    const ref = flattenLayout(d, 'Model', { maxEntities: 3000 })!;
    expect(ref.skipped['INSERT:limit']).toBeGreaterThan(0);
    expect(limited.blocks).toBeUndefined();
    expect(limited.polylines.length).toBe(ref.polylines.length);
    expect(limited.skipped).toEqual(ref.skipped);
  });

  it('renderers that read the flattening see the instances baked back', () => {
    const one = parseDxf(blockFixtureDxf(3));
    expect(renderSvg(flattenLayout(one, 'Model', { blockInstances: true })!)).toBe(renderSvg(flattenLayout(one, 'Model')!));
  });
});

describe('block instancing: the scene', () => {
  it('draws what the baked scene draws: same segments and triangles (positions, colours, entities, layers, weights)', () => {
    expect(instanced.meta.bounds).toEqual(baked.meta.bounds);
    expect(instanced.meta.entities).toEqual(baked.meta.entities);
    const tol = 1e-6 * extent;
    const segs = diffPrims(sceneSegments(instanced), sceneSegments(baked), tol);
    expect(segs.onlyA).toEqual([]);
    expect(segs.onlyB).toEqual([]);
    const tris = diffPrims(sceneTriangles(instanced), sceneTriangles(baked), tol);
    expect(tris.onlyA).toEqual([]);
    expect(tris.onlyB).toEqual([]);
    // and nearly all of it is instanced: the baked buffers keep only the plain lines and the INSERTs that must stay
    expect(sceneSegments(baked).length).toBeGreaterThan(30_000);
    expect(instanced.linePositions.length / 4).toBeLessThan(sceneSegments(baked).length / 20);
  });

  it('is several times smaller (stated: 1,000 inserts of a 35-segment block)', () => {
    const small = encodeScene(instanced).length, big = encodeScene(baked).length;
    // measured 250,640 vs 1,037,948 bytes (4.1×): what is left is mostly the meta JSON (an entity record per INSERT, a text per block TEXT)
    expect(big / small).toBeGreaterThan(3.5);
    const arrays = (s: Scene) => Object.values(s).reduce((a, v) => a + (ArrayBuffer.isView(v) ? v.byteLength : 0), 0);
    // the geometry alone: > 8× smaller
    expect(arrays(baked) / arrays(instanced)).toBeGreaterThan(8);
    // one or two draw calls per mesh
    expect(instanced.meta.blocks!.length).toBeLessThan(40);
  });

  it('keeps colours, layers and weights per mesh segment, the affine and the INSERT per instance', () => {
    const s = instanced;
    const layerName = (i: number) => s.meta.layers[i].name;
    // the arc on its own layer B keeps B; layer-0 children stand on their INSERT's layer
    const layers = new Set([...s.blockLineLayers].map(layerName));
    expect([...layers].sort()).toEqual(['B', 'L1', 'L2']);
    // mirrored instances have a negative determinant (SYM has arcs: its meshes hold their scale, the instance the rest)
    const I = s.blockInstances;
    const dets: number[] = [];
    for (let i = 0; i < I.length / 8; i++) {
      dets.push(Math.sign(I[i * 8] * I[i * 8 + 3] - I[i * 8 + 1] * I[i * 8 + 2]));
    }
    expect(dets).toContain(-1);
    expect(dets).toContain(1);
    // the INSERT's layer travels with the instance
    expect(new Set([...Array(I.length / 8).keys()].map((i) => layerName(I[i * 8 + 6])))).toEqual(new Set(['L1', 'L2']));
    // ByBlock colours: red and blue inserts give red and blue ByBlock lines
    const colors = new Set<number>();
    for (let k = 0; k < s.blockLineColors.length; k += 4) colors.add((s.blockLineColors[k] << 16) | (s.blockLineColors[k + 1] << 8) | s.blockLineColors[k + 2]);
    expect(colors.has(0xff0000) && colors.has(0x0000ff)).toBe(true);
    expect([...s.blockLineWeights]).toContain(35);
  });

  it('picks an instance as its INSERT, bounds it, snaps to its vertices and honours the segment layers', () => {
    const s = instanced;
    const [lf, lc, , , first, count] = s.meta.blocks![0];
    const i = first + Math.floor(count / 2);
    const insert = s.blockInstanceEntities[i];
    expect(s.meta.entities[insert].type).toBe('INSERT');
    // the middle of the mesh's first segment, as placed by the instance
    const [x0, y0] = placed(s, i, lf), [x1, y1] = placed(s, i, lf + 1);
    expect(handleOf(s, pickEntity(s, (x0 + x1) / 2, (y0 + y1) / 2, 0.01)!)).toBe(handleOf(s, insert));
    // picking the same point in the baked scene finds the same INSERT
    expect(handleOf(baked, pickEntity(baked, (x0 + x1) / 2, (y0 + y1) / 2, 0.01)!)).toBe(handleOf(s, insert));
    const b = entityBounds(s, insert)!;
    const bb = entityBounds(baked, entityOf(baked, handleOf(s, insert)!))!;
    for (const k of ['minX', 'minY', 'maxX', 'maxY'] as const) expect(Math.abs(b[k] - bb[k])).toBeLessThan(1e-6 * extent);
    // measuring snaps to a vertex inside the instance
    const near = nearestBlockVertex(s, x0 - s.meta.origin[0] + 0.01, y0 - s.meta.origin[1], 1);
    expect(near![0] + s.meta.origin[0]).toBeCloseTo(x0, 4);
    // a click inside an instance's SOLID selects the INSERT too (triangles)
    const [, , tf] = s.meta.blocks![0];
    const T = s.blockTriPositions, I = s.blockInstances;
    const cx = (T[tf * 2] + T[tf * 2 + 2] + T[tf * 2 + 4]) / 3, cy = (T[tf * 2 + 1] + T[tf * 2 + 3] + T[tf * 2 + 5]) / 3;
    const px = I[i * 8] * cx + I[i * 8 + 2] * cy + I[i * 8 + 4] + s.meta.origin[0], py = I[i * 8 + 1] * cx + I[i * 8 + 3] * cy + I[i * 8 + 5] + s.meta.origin[1];
    expect(handleOf(s, pickEntity(s, px, py, 1e-6)!)).toBe(handleOf(s, insert));
    // a segment of a hidden layer is not picked: the arc on B, with B hidden
    const B = s.meta.layers.findIndex((l) => l.name === 'B');
    const arc = [...s.blockLineLayers.subarray(lf / 2, (lf + lc) / 2)].indexOf(B);
    const [a0, b0] = placed(s, i, lf + arc * 2), [a1, b1] = placed(s, i, lf + arc * 2 + 1);
    const all = new Set(s.meta.layers.map((_, k) => k));
    expect(pickEntity(s, (a0 + a1) / 2, (b0 + b1) / 2, 1e-3, all)).toBe(insert);
    all.delete(B);
    expect(pickEntity(s, (a0 + a1) / 2, (b0 + b1) / 2, 1e-3, all)).not.toBe(insert);
  });

  it('lists instanced geometry in the per-vertex views after the baked geometry', () => {
    const s = instanced, ex = expandBlockInstances(s);
    const bakedSegs = s.linePositions.length / 4;
    expect(s.lineColors.length).toBe((bakedSegs + ex.lineEntities.length) * 8);
    expect(s.lineEntities.length).toBe(bakedSegs + ex.lineEntities.length);
    expect([...s.lineEntities.subarray(bakedSegs)]).toEqual([...ex.lineEntities]);
    expect(s.triEntities.length).toBe(s.triPositions.length / 6 + ex.triEntities.length);
  });

  it('survives the binary round trip (the block arrays come whole in the first batch)', () => {
    const back = decodeScene(encodeScene(instanced));
    expect(back.meta.blocks).toEqual(instanced.meta.blocks);
    for (const k of ['blockLinePositions', 'blockLineColors', 'blockLineLayers', 'blockLineWeights', 'blockTriPositions', 'blockTriColors', 'blockTriLayers', 'blockInstances', 'blockInstanceEntities'] as const) expect([...back[k]]).toEqual([...instanced[k]]);
    // and a scene with none has them empty
    expect(decodeScene(encodeScene(baked)).blockInstances.length).toBe(0);
  });

  it('bakes every instance when told to (the scene without block instancing)', () => {
    const off = compile(flatInstanced, false);
    expect(off.meta.blocks).toEqual([]);
    expect(off.linePositions.length).toBe(baked.linePositions.length);
    expect(areaBy(sceneTriangles(off))).toEqual(areaBy(sceneTriangles(baked)));
  });
});

describe('block instancing with exact curves (as the server builds scenes)', () => {
  const withCurves = flattenLayout(d, 'Model', { curves: true })!;
  const both = flattenLayout(d, 'Model', { curves: true, blockInstances: true })!;
  const key = (c: NonNullable<typeof both.curves>[number]) => [c.entity, c.layer, c.color, ...[c.cx, c.cy, c.ux, c.uy, c.vx, c.vy].map((v) => Math.round(v / (extent * 1e-9))), Math.round(c.t0 * 1e6), Math.round(c.sweep * 1e6)].join(' ');

  it('places the curves of an instanced block once per instance, exact, selected as its INSERT', () => {
    expect(both.blocks?.instances.length).toBeGreaterThan(900);
    expect(withCurves.curves!.length).toBeGreaterThan(900);
    // the same curves as without instancing: none lost in a mesh, none drawn twice, none at the mesh's coordinates
    expect(both.curves!.map(key).sort()).toEqual(withCurves.curves!.map(key).sort());
    // and the rest bakes back to the same polylines
    expect(expandFlatBlocks(both).polylines.length).toBe(withCurves.polylines.length);
  });

  it('compiles to a scene whose curve records are those of the baked scene', () => {
    const a = compileScene(d, both, { layout: 'Model', layouts: ['Model'] });
    const b = compileScene(d, withCurves, { layout: 'Model', layouts: ['Model'] });
    expect(a.curves.length).toBe(b.curves.length);
    expect(a.meta.blocks!.length).toBeGreaterThan(0);
    expect(diffPrims(sceneSegments(a), sceneSegments(b), extent * 1e-6)).toEqual({ onlyA: [], onlyB: [] });
  });
});
