import { type Accessor, BufferUtils, type Document, Format, getBounds, Logger, type Node as GltfNode, NodeIO, type Scene as GltfScene } from '@gltf-transform/core';
import { ALL_EXTENSIONS, EXTMeshoptCompression } from '@gltf-transform/extensions';
import { meshopt, quantize, weldPrimitive } from '@gltf-transform/functions';
import { MeshoptDecoder, MeshoptEncoder } from 'meshoptimizer';
import type { Model3dLimits } from '../limits.ts';
import type { Model3dStage } from '../progress.ts';
import { checkCounts } from '../scene.ts';
import { coarseLevel } from './lod.ts';
import { quantizeMerged } from './quantize.ts';
import { BATCHES_EXTRAS, type BatchedElements, rangeTriangles, withElements } from './batch.ts';
import { renderThumbnail } from './thumbnail.ts';

/** A node of the model tree the viewer lists: `node` is its index among the GLB's nodes. */
export interface ModelNode {
  name: string;
  node: number;
  triangles: number;
  properties?: Record<string, unknown>;
  children: ModelNode[];
}

export interface ModelStats {
  triangles: number;
  nodes: number;
  bbox: { min: [number, number, number]; max: [number, number, number] };
  /** the up axis of the coordinates (also in the GLB's scene extras): glTF's own is Y */
  upAxis: 'Y' | 'Z';
  /** vertices of the meshes (each mesh once, as stored) */
  vertices: number;
  /** the coarse level of detail written beside the GLB (big models only): its triangles and bytes */
  lod?: { triangles: number; bytes: number };
}

const quiet = new Logger(Logger.Verbosity.ERROR);
/** above this many primitives of fewer than SMALL_PRIMITIVE vertices on average, meshes are not reordered */
const MANY_PRIMITIVES = 1000;
const SMALL_PRIMITIVE = 1000;

/** gltf-transform's reader and writer with every extension it knows and meshopt's decoder and encoder */
export async function gltfIO(): Promise<NodeIO> {
  await Promise.all([MeshoptDecoder.ready, MeshoptEncoder.ready]);
  return new NodeIO().setLogger(quiet).registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.decoder': MeshoptDecoder, 'meshopt.encoder': MeshoptEncoder });
}

const isBatches = (n: GltfNode) => (n.getExtras() as Record<string, unknown>)[BATCHES_EXTRAS] === true;

function meshTriangles(n: GltfNode): number {
  let t = 0;
  for (const p of n.getMesh()?.listPrimitives() ?? []) {
    const mode = p.getMode();
    if (mode !== 4) continue; // TRIANGLES only; strips and fans are not written by our importers
    t += Math.floor((p.getIndices()?.getCount() ?? p.getAttribute('POSITION')?.getCount() ?? 0) / 3);
  }
  return t;
}

/**
 * getBounds(scene) with typed-array loops when every position is plain 32-bit floats (getBounds reads each indexed
 * vertex through Accessor.getElement: 2 million reads for a 50 MB IFC); the same arithmetic (gl-matrix's
 * transformMat4 by the node's world matrix, over the vertices the indices use), so the same numbers
 */
function sceneBounds(scene: GltfScene): { min: number[]; max: number[] } {
  const meshNodes: GltfNode[] = [];
  for (const c of scene.listChildren()) c.traverse((n) => void (n.getMesh() && meshNodes.push(n)));
  const plain = (a: Accessor | null) => !a || (a.getArray() instanceof Float32Array && !a.getNormalized() && !a.getSparse());
  if (!meshNodes.every((n) => n.getMesh()!.listPrimitives().every((p) => plain(p.getAttribute('POSITION'))))) return getBounds(scene);
  const min = [Infinity, Infinity, Infinity];
  const max = [-Infinity, -Infinity, -Infinity];
  for (const n of meshNodes) {
    const m = n.getWorldMatrix();
    const low = [Infinity, Infinity, Infinity];
    const high = [-Infinity, -Infinity, -Infinity];
    for (const p of n.getMesh()!.listPrimitives()) {
      const positions = p.getAttribute('POSITION')?.getArray() as Float32Array | undefined;
      if (!positions) continue;
      const indices = p.getIndices()?.getArray();
      const count = indices ? indices.length : positions.length / 3;
      for (let i = 0; i < count; i++) {
        const v = (indices ? indices[i] : i) * 3;
        const x = positions[v], y = positions[v + 1], z = positions[v + 2];
        const w = m[3] * x + m[7] * y + m[11] * z + m[15] || 1;
        const wx = (m[0] * x + m[4] * y + m[8] * z + m[12]) / w;
        const wy = (m[1] * x + m[5] * y + m[9] * z + m[13]) / w;
        const wz = (m[2] * x + m[6] * y + m[10] * z + m[14]) / w;
        low[0] = Math.min(wx, low[0]);
        low[1] = Math.min(wy, low[1]);
        low[2] = Math.min(wz, low[2]);
        high[0] = Math.max(wx, high[0]);
        high[1] = Math.max(wy, high[1]);
        high[2] = Math.max(wz, high[2]);
      }
    }
    // a mesh's bounds count when finite, as getBounds has it
    if (low.every(isFinite) && high.every(isFinite))
      for (let k = 0; k < 3; k++) {
        min[k] = Math.min(low[k], min[k], high[k]);
        max[k] = Math.max(low[k], max[k], high[k]);
      }
  }
  return { min, max };
}

/**
 * the tree and counts of a document (before compression: the counts do not change, the accessors are plain); a batched
 * model's element nodes (batch.ts) come first in the GLB, before the document's own
 */
export function describe(doc: Document, elements?: BatchedElements): { stats: ModelStats; tree: ModelNode[] } {
  const root = doc.getRoot();
  let vertices = 0;
  for (const m of root.listMeshes()) for (const p of m.listPrimitives()) vertices += p.getAttribute('POSITION')?.getCount() ?? 0;
  const first = elements?.nodes.length ?? 0;
  const index = new Map(root.listNodes().map((n, i) => [n, first + i]));
  let triangles = 0;
  const element = (i: number): ModelNode => {
    const e = elements!.nodes[i];
    const own = rangeTriangles(e.batches);
    triangles += own;
    const children = e.children.map(element);
    const props = e.properties && Object.keys(e.properties).length ? e.properties : undefined;
    return { name: e.name, node: i, triangles: own + children.reduce((s, c) => s + c.triangles, 0), ...(props ? { properties: props } : {}), children };
  };
  const walk = (n: GltfNode): ModelNode => {
    // a batched element's triangles are its ranges in the merged primitives (glb/batch.ts)
    const own = meshTriangles(n) + rangeTriangles(n.getExtras().batches);
    triangles += own;
    const children = n.listChildren().map(walk);
    const props = (n.getExtras() as { properties?: Record<string, unknown> }).properties;
    const sum = own + children.reduce((s, c) => s + c.triangles, 0);
    return { name: n.getName(), node: index.get(n)!, triangles: sum, ...(props ? { properties: props } : {}), children };
  };
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  const holder = scene?.listChildren().find(isBatches);
  const tree = [...(elements?.roots.map(element) ?? []), ...(scene ? scene.listChildren().filter((n) => n !== holder).map(walk) : [])];
  const b = scene && triangles ? sceneBounds(scene) : { min: [0, 0, 0], max: [0, 0, 0] };
  return {
    stats: { triangles, vertices, nodes: first + root.listNodes().length, upAxis: (scene?.getExtras() as { upAxis?: 'Z' })?.upAxis === 'Z' ? 'Z' : 'Y', bbox: { min: [...b.min] as [number, number, number], max: [...b.max] as [number, number, number] } },
    tree,
  };
}

/** io.writeBinary(doc), with a batched model's element nodes put into its JSON (batch.ts withElements) */
async function writeGlb(io: NodeIO, doc: Document, elements?: BatchedElements, ranges = true): Promise<Uint8Array> {
  const { json, resources } = await io.writeJSON(doc, { format: Format.GLB });
  if (elements) withElements(json, elements, ranges);
  const chunk = (data: Uint8Array, type: number) => BufferUtils.concat([BufferUtils.toView(new Uint32Array([data.byteLength, type])), data]);
  const jsonChunk = chunk(BufferUtils.pad(BufferUtils.encodeText(JSON.stringify(json)), 32), 0x4e4f534a);
  const bin = Object.values(resources)[0];
  const binChunk = bin?.byteLength ? chunk(BufferUtils.pad(bin, 0), 0x004e4942) : new Uint8Array(0);
  const header = new Uint32Array([0x46546c67, 2, 12 + jsonChunk.byteLength + binChunk.byteLength]);
  return BufferUtils.concat([BufferUtils.toView(header), jsonChunk, binChunk]);
}

/** quantizes and compresses (EXT_meshopt_compression) a welded document and writes it as GLB (`writing` once compressed) */
async function compress(doc: Document, io: NodeIO, writing: () => void = () => undefined, elements?: BatchedElements, ranges = true): Promise<Uint8Array> {
  const root = doc.getRoot();
  const prims = root.listMeshes().flatMap((m) => m.listPrimitives());
  // (the coarse level, its ranges dropped, is compressed as any model: meshopt may reorder its triangles)
  const batched = (!!elements && ranges) || root.listNodes().some(isBatches);
  const vertices = prims.reduce((n, p) => n + (p.getAttribute('POSITION')?.getCount() ?? 0), 0);
  if (batched) {
    // merged primitives: meshopt's reordering would move the triangles out of the elements' ranges, so quantized (16
    // bits: a batch spans the whole model, 14 bits left 6 mm steps across a 100 m building) and compressed as they are
    await quantizeMerged(doc, 16);
    doc.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
  } else if (prims.length > MANY_PRIMITIVES && vertices / prims.length < SMALL_PRIMITIVE) {
    // many small meshes (a building's elements): meshopt's reordering is left out, it took half of the time (11 of 19 s
    // for 20 000 IFC walls) and saved nothing on meshes of a few dozen vertices; quantized as meshopt() does
    await doc.transform(quantize({ pattern: /.*/, patternTargets: /.*/ }));
    doc.createExtension(EXTMeshoptCompression).setRequired(true).setEncoderOptions({ method: EXTMeshoptCompression.EncoderMethod.QUANTIZE });
  } else await doc.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
  writing();
  return writeGlb(io, doc, elements, ranges);
}

/**
 * Welds, quantizes and compresses (EXT_meshopt_compression) the document and writes it as GLB; with `thumbnail` (its
 * size in pixels) also a PNG of the model drawn before compression. A model of more than `lodAboveTriangles` also
 * gets its coarse level (`lod`, a GLB of the same nodes with simplified meshes: lod.ts says why).
 */
export async function finishGlb(
  doc: Document, limits: Model3dLimits, thumbnail?: number, stage: (s: Model3dStage) => void = () => undefined, elements?: BatchedElements,
): Promise<{ glb: Uint8Array; lod?: Uint8Array; stats: ModelStats; tree: ModelNode[]; thumbnail?: Uint8Array }> {
  const { stats, tree } = describe(doc, elements);
  checkCounts(limits, stats.triangles, stats.vertices);
  const io = await gltfIO();
  doc.setLogger(quiet);
  // a glTF without a default scene shows nothing in some viewers: its first scene becomes the default
  const root = doc.getRoot();
  if (!root.getDefaultScene() && root.listScenes().length) root.setDefaultScene(root.listScenes()[0]);
  // welding only what has no indices (three's loaders, some glTF): indexed meshes (occt, web-ifc, rhino3dm) are welded
  // by their libraries, and welding 20 000 IFC elements again cost 4 s of a 17 s conversion
  for (const mesh of root.listMeshes()) for (const p of mesh.listPrimitives()) if (!p.getIndices()) weldPrimitive(p);
  const coarse = stats.triangles > limits.lodAboveTriangles ? await coarseLevel(doc, stats.triangles, limits.lodTargetTriangles) : null;
  // a big model's thumbnail is drawn from its coarse level: the same look at a fraction of the time
  if (thumbnail) stage('thumbnail');
  const png = thumbnail ? renderThumbnail(coarse?.doc ?? doc, stats.upAxis, thumbnail) : undefined;
  stage('compress');
  const lod = coarse ? await compress(coarse.doc.setLogger(quiet), io, undefined, elements, false) : undefined;
  const glb = await compress(doc, io, () => stage('write'), elements);
  return { glb, stats: { ...stats, ...(coarse && lod ? { lod: { triangles: coarse.triangles, bytes: lod.byteLength } } : {}) }, tree, ...(lod ? { lod } : {}), ...(png ? { thumbnail: png } : {}) };
}
