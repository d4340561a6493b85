import { Box3, BufferAttribute, BufferGeometry, type Mesh, type Object3D, Sphere, Vector3 } from 'three';
import { isBatchHolder } from './batches.ts';

/** about this many triangles a chunk: few enough draw calls, small enough boxes for the camera's frustum to cull */
export const CHUNK_TRIANGLES = 16_384;

interface Range {
  element: Object3D;
  /** position of the triple in the element's `batches` list */
  slot: number;
  first: number;
  count: number;
  cell: number;
}

/**
 * Splits a batched model's merged meshes into spatial chunks, each a mesh of its own with its own bounding sphere, so
 * three.js frustum-culls (and the raycaster skips) the parts off screen: a merged mesh holds elements from anywhere in
 * the model (the converter fills them in element order), so its sphere is the whole model's and it is never culled.
 *
 * The elements are put in one grid over the model by the centre of their triangles (cells of about CHUNK_TRIANGLES);
 * a merged mesh's elements in one cell become one chunk: a new index listing their triangles, sharing the merged
 * mesh's vertex attributes (one GPU buffer still). An element's triangle ranges are rewritten to name its chunk and
 * its first triangle there (batches.ts picks, hides, isolates and highlights by them), so every element keeps all its
 * triangles, whole and in one chunk per range. Triangles no element owns are not drawn today either; they are left out.
 * Returns how many chunks there are (0: no batches).
 */
export function chunkBatches(model: Object3D, target = CHUNK_TRIANGLES): number {
  let holder: Object3D | undefined;
  model.traverse((o) => {
    if (!holder && isBatchHolder(o)) holder = o;
  });
  if (!holder) return 0;
  const meshes = holder.children.filter((c) => (c as Mesh).isMesh) as Mesh[];
  const ranges: Range[][] = meshes.map(() => []);
  model.traverse((o) => {
    const r = o.userData?.batches;
    if (!Array.isArray(r) || isBatchHolder(o)) return;
    for (let i = 0; i + 2 < r.length; i += 3) ranges[r[i]]?.push({ element: o, slot: i, first: r[i + 1], count: r[i + 2], cell: 0 });
  });
  const chunks: Mesh[] = [];
  const rewritten: [Range, number, number][] = [];
  const v = new Vector3();
  const box = new Box3();
  // the centre of each range's triangles (its box's), and the box of all centres
  const centres = ranges.map(() => [] as Vector3[]);
  const all = new Box3();
  let total = 0;
  meshes.forEach((mesh, b) => {
    const pos = mesh.geometry.getAttribute('position');
    const index = mesh.geometry.getIndex();
    for (const r of ranges[b]) {
      box.makeEmpty();
      for (let i = r.first * 3; i < (r.first + r.count) * 3; i++) box.expandByPoint(v.fromBufferAttribute(pos, index ? index.getX(i) : i));
      const c = box.getCenter(new Vector3());
      centres[b].push(c);
      all.expandByPoint(c);
      total += r.count;
    }
  });
  // one grid over the whole model, cubic cells holding about `target` triangles if the model were evenly filled: a merged
  // mesh is cut wherever its elements lie (spread over the model, or already together in one place: then it stays whole)
  const size = all.getSize(new Vector3());
  const cell = Math.max(size.x, size.y, size.z, 1e-9) / Math.max(1, Math.round(Math.cbrt(total / target)));
  const along = [size.x, size.y, size.z].map((e) => Math.floor(e / cell) + 1);
  meshes.forEach((mesh, b) => {
    const g = mesh.geometry;
    const index = g.getIndex();
    const vertexOf = (i: number) => (index ? index.getX(i) : i);
    const list = ranges[b];
    list.forEach((r, i) => {
      const c = centres[b][i];
      const [x, y, z] = [c.x - all.min.x, c.y - all.min.y, c.z - all.min.z].map((d, a) => Math.min(along[a] - 1, Math.floor(d / cell)));
      r.cell = (x * along[1] + y) * along[2] + z;
    });
    const cells = new Map<number, Range[]>();
    for (const r of list) (cells.get(r.cell) ?? cells.set(r.cell, []).get(r.cell)!).push(r);
    for (const members of [...cells.entries()].sort((a, c) => a[0] - c[0]).map((e) => e[1])) {
      const count = members.reduce((n, r) => n + r.count, 0);
      const out = new (index && index.array instanceof Uint16Array ? Uint16Array : Uint32Array)(count * 3);
      let at = 0;
      for (const r of members) {
        for (let i = r.first * 3; i < (r.first + r.count) * 3; i++) out[at++] = vertexOf(i);
        rewritten.push([r, chunks.length, at / 3 - r.count]);
      }
      const geometry = new BufferGeometry();
      for (const [name, attr] of Object.entries(g.attributes)) geometry.setAttribute(name, attr);
      geometry.setIndex(new BufferAttribute(out, 1));
      boundIndexed(geometry);
      const chunk = mesh.clone(false) as Mesh;
      chunk.geometry = geometry;
      chunk.userData = { ...mesh.userData, chunkOf: b };
      chunks.push(chunk);
    }
  });
  // the triples as they are now: [chunk, first triangle in it, count]
  for (const [r, chunk, first] of rewritten) {
    const list = r.element.userData.batches as number[];
    list.splice(r.slot, 3, chunk, first, r.count);
  }
  for (const m of meshes) m.removeFromParent();
  holder.add(...chunks);
  return chunks.length;
}

/** Box and sphere of the vertices the index uses (three's computeBounding… walk every vertex of the shared attribute). */
function boundIndexed(g: BufferGeometry) {
  const pos = g.getAttribute('position');
  const index = g.getIndex()!;
  const box = new Box3();
  const v = new Vector3();
  for (let i = 0; i < index.count; i++) box.expandByPoint(v.fromBufferAttribute(pos, index.getX(i)));
  const centre = box.getCenter(new Vector3());
  let r2 = 0;
  for (let i = 0; i < index.count; i++) r2 = Math.max(r2, centre.distanceToSquared(v.fromBufferAttribute(pos, index.getX(i))));
  g.boundingBox = box;
  g.boundingSphere = new Sphere(centre, Math.sqrt(r2));
}
