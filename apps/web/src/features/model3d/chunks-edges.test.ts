import { describe, expect, it } from 'vitest';
import { BoxGeometry, BufferAttribute, BufferGeometry, Frustum, Group, Matrix4, Mesh, MeshBasicMaterial, type Object3D, PerspectiveCamera, Raycaster, Vector3 } from 'three';
import { mergeGeometries } from 'three/examples/jsm/utils/BufferGeometryUtils.js';
import { BatchedElements } from './batches.ts';
import { chunkBatches } from './chunks.ts';
import { answerEdgesRequest, compact, type EdgesRequest } from './edges-protocol.ts';
import { EdgesService } from './edges-service.ts';
import { featureEdges, SegmentGrid } from './feature-edges.ts';
import { hide } from './scene-tree.ts';

/**
 * A batched model like the converter writes (glb/batch.ts): `n`³ unit boxes on a grid 3 apart, merged into one mesh
 * under a holder marked `batches`, each box an element node whose `batches` names its 12 triangles — in a shuffled
 * order, as a converter fills merged meshes from anywhere in the model.
 */
function batchedModel(n: number) {
  const model = new Group();
  const holder = new Group();
  holder.userData.batches = true;
  const boxes: BufferGeometry[] = [];
  const elements: Object3D[] = [];
  const spots: Vector3[] = [];
  for (let x = 0; x < n; x++) for (let y = 0; y < n; y++) for (let z = 0; z < n; z++) spots.push(new Vector3(x * 3, y * 3, z * 3));
  // a fixed shuffle (every 7th of the n³ positions, 7 and n³ coprime for the n used)
  const order = spots.map((_, i) => spots[(i * 7) % spots.length]);
  order.forEach((at, i) => {
    boxes.push(new BoxGeometry(1, 1, 1).translate(at.x, at.y, at.z));
    const e = new Group();
    e.name = `E${i}`;
    e.userData.batches = [0, i * 12, 12];
    e.userData.at = at.toArray();
    elements.push(e);
  });
  const merged = mergeGeometries(boxes)!;
  const mesh = new Mesh(merged, new MeshBasicMaterial());
  holder.add(mesh);
  model.add(holder, ...elements);
  model.updateMatrixWorld(true);
  return { model, holder, mesh, elements };
}

/** the triangles' corners of an element's ranges, as sorted strings (to compare before and after chunking) */
function cornersOf(e: Object3D, meshes: Mesh[]): string[] {
  const r = e.userData.batches as number[];
  const out: string[] = [];
  for (let i = 0; i < r.length; i += 3) {
    const g = meshes[r[i]].geometry;
    const pos = g.getAttribute('position');
    for (let t = r[i + 1] * 3; t < (r[i + 1] + r[i + 2]) * 3; t++) {
      const v = new Vector3().fromBufferAttribute(pos, g.index!.getX(t));
      out.push(v.toArray().map((c) => c.toFixed(4)).join(','));
    }
  }
  return out.sort();
}

describe('spatial chunks of merged meshes', () => {
  it('splits by position: every element keeps exactly its triangles, each chunk a tight sphere; picking, hiding and culling work per element', () => {
    const { model, holder, mesh, elements } = batchedModel(5); // 125 boxes, 1 500 triangles
    const before = elements.map((e) => cornersOf(e, [mesh]));
    const count = chunkBatches(model, 200);
    expect(count).toBeGreaterThanOrEqual(8);
    const chunks = holder.children as Mesh[];
    expect(chunks).toHaveLength(count);
    expect(mesh.parent).toBeNull();
    // the vertex attributes are shared (one GPU buffer), only the index is the chunk's own
    for (const c of chunks) expect(c.geometry.getAttribute('position')).toBe(mesh.geometry.getAttribute('position'));
    expect(chunks.reduce((n, c) => n + c.geometry.index!.count / 3, 0)).toBe(1500);
    elements.forEach((e, i) => expect(cornersOf(e, chunks)).toEqual(before[i]));
    // each chunk's sphere holds its triangles and is much smaller than the model's (radius ≈ 10.4)
    for (const c of chunks) {
      const s = c.geometry.boundingSphere!;
      const pos = c.geometry.getAttribute('position');
      for (let t = 0; t < c.geometry.index!.count; t++) expect(s.distanceToPoint(new Vector3().fromBufferAttribute(pos, c.geometry.index!.getX(t)))).toBeLessThanOrEqual(1e-6);
      expect(s.radius).toBeLessThan(7);
    }

    // every element is still picked by a ray onto its box, by its own triangles
    const batches = BatchedElements.of(model, (m) => m.clone())!;
    expect(batches.meshes).toHaveLength(count);
    for (const e of elements) {
      const at = new Vector3(...(e.userData.at as [number, number, number]));
      const ray = new Raycaster(at.clone().add(new Vector3(0.1, 0.2, 1)), new Vector3(0, 0, -1));
      ray.far = 1; // only the box itself (the next one is 3 away)
      const hit = ray.intersectObject(holder, true)[0];
      expect(batches.elementAt(hit.object as Mesh, hit.faceIndex!)).toBe(e);
    }
    // hidden: its chunk's draw groups leave its 12 triangles out
    hide([elements[0]]);
    batches.refresh(null);
    const drawn = chunks.reduce((n, c) => n + c.geometry.groups.reduce((k, g) => k + g.count / 3, 0), 0);
    expect(drawn).toBe(1500 - 12);

    // a camera close to one corner sees only some chunks: the others are culled by their spheres
    const cam = new PerspectiveCamera(40, 1, 0.1, 5);
    cam.position.set(-2, -2, -2);
    cam.lookAt(0, 0, 0);
    cam.updateMatrixWorld();
    const frustum = new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse));
    const seen = chunks.filter((c) => frustum.intersectsObject(c)).length;
    expect(seen).toBeGreaterThan(0);
    expect(seen).toBeLessThan(count / 2);
    // unchunked, the one merged mesh is always "in view"
    const whole = batchedModel(5);
    expect(frustum.intersectsObject(whole.mesh)).toBe(true);
  });

  it('a model without batches is left as it is', () => {
    const model = new Group().add(new Mesh(new BoxGeometry(), new MeshBasicMaterial()));
    expect(chunkBatches(model)).toBe(0);
    expect(model.children).toHaveLength(1);
  });
});

describe('the edges worker protocol', () => {
  it('compact keeps only the vertices the triangles use, renumbered, the same triangles', () => {
    const positions = Float32Array.from([0, 0, 0, 9, 9, 9, 1, 0, 0, 0, 1, 0]);
    const { positions: p, index } = compact(positions, Uint32Array.from([2, 0, 3]));
    expect([...index]).toEqual([0, 1, 2]);
    expect([...p]).toEqual([1, 0, 0, 0, 0, 0, 0, 1, 0]);
  });

  it('answers the feature edges of the triangles asked for; positions go over once per attribute; the grid survives the trip', () => {
    const box = new BoxGeometry(4, 2, 1);
    const positions = Float32Array.from(box.getAttribute('position').array);
    const attrs = new Map<number, Float32Array>();
    const whole = answerEdgesRequest({ id: 1, attr: 7, positions, index: Uint32Array.from(box.index!.array) }, attrs);
    if (!('grid' in whole)) throw new Error(whole.error);
    expect(whole.grid.segments.length / 6).toBe(12);
    expect(whole.grid.segments).toEqual(featureEdges(box).grid.data().segments);
    // the +x face's two triangles only, the positions not sent again: its 4 border edges
    const face = answerEdgesRequest({ id: 2, attr: 7, index: Uint32Array.from(box.index!.array.slice(0, 6)) }, attrs);
    expect('grid' in face && face.grid.segments.length / 6).toBe(4);
    expect(answerEdgesRequest({ id: 3, attr: 8, index: null }, attrs)).toEqual({ id: 3, error: 'positions 8 not sent' });
  });

  it('a big grid rebuilt from its arrays answers the same queries', () => {
    const seg = new Float32Array(6 * 2000).map((_, i) => ((i * 7919) % 1000) / 10);
    const grid = new SegmentGrid(seg);
    const again = new SegmentGrid(structuredClone(grid.data()));
    for (const p of [[10, 20, 30], [50, 50, 50], [99, 1, 0]] as [number, number, number][]) expect(again.near(p, 3).sort()).toEqual(grid.near(p, 3).sort());
  });

  it('the service: nothing ready until the worker answers; one request per geometry; chunks sharing an attribute send its positions once', async () => {
    const sent: EdgesRequest[] = [];
    const attrs = new Map<number, Float32Array>();
    const fake = {
      onmessage: null as ((e: MessageEvent) => void) | null,
      postMessage(req: EdgesRequest) {
        sent.push(req);
        setTimeout(() => fake.onmessage!({ data: answerEdgesRequest(req, attrs) } as MessageEvent), 5);
      },
      terminate() {},
    };
    const service = new EdgesService(() => fake as unknown as Worker);
    const box = new BoxGeometry(4, 2, 1);
    const half = new BufferGeometry();
    half.setAttribute('position', box.getAttribute('position'));
    half.setIndex(new BufferAttribute(Uint16Array.from(box.index!.array.slice(0, 6)), 1));
    const a = service.request(box);
    expect(service.request(box)).toBe(a);
    expect(service.ready(box)).toBeNull();
    const b = service.request(half);
    const [ea, eb] = await Promise.all([a, b]);
    expect(service.ready(box)).toBe(ea);
    expect(ea.grid.count).toBe(12);
    expect(eb.grid.count).toBe(4);
    expect(sent.map((r) => [r.attr, !!r.positions])).toEqual([[1, true], [1, false]]);
    service.dispose();
  });
});
