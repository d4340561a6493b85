import type { Document } from '@gltf-transform/core';
import { asModel3dError, badInput, tooLarge, unsupported } from './errors.ts';
import { sceneToDocument } from './glb/document.ts';
import { BATCH_ABOVE, meshNodeCount, sceneToBatches } from './glb/batch.ts';
import { finishGlb, type ModelNode, type ModelStats } from './glb/finish.ts';
import { type Model3dLimits, withDefaults } from './limits.ts';
import { type ImportProgress, type OnModel3dProgress, progressReporter } from './progress.ts';
import { type Scene, TriangleBudget } from './scene.ts';

/** the formats convertToGlb reads, by file extension */
export const MODEL3D_FORMATS = {
  step: ['step', 'stp'],
  iges: ['iges', 'igs'],
  brep: ['brep', 'brp'],
  stl: ['stl'],
  obj: ['obj'],
  ply: ['ply'],
  off: ['off'],
  ifc: ['ifc'],
  '3dm': ['3dm'],
  gltf: ['gltf'],
  glb: ['glb'],
  fbx: ['fbx'],
  dae: ['dae'],
  '3ds': ['3ds'],
  '3mf': ['3mf'],
} as const;
/**
 * Drawings converted to 3D only when the user asks for it (their solids, meshes and 3D faces; the 2D viewer stays
 * theirs otherwise): not in the 3D type group, unlike MODEL3D_FORMATS.
 */
export const DRAWING_3D_FORMATS = {
  dwg: ['dwg', 'dwt'],
  dxf: ['dxf'],
} as const;
export type Model3dFormat = keyof typeof MODEL3D_FORMATS | keyof typeof DRAWING_3D_FORMATS;
/** read by a WebAssembly library whose heap the worker's cap does not bound: their size limit is maxWasmInputBytes */
const WASM_FORMATS = new Set<Model3dFormat>(['step', 'iges', 'brep', 'ifc', '3dm', 'fbx', 'dae', '3ds', '3mf']);

export function formatOf(name: string): Model3dFormat | null {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  for (const [format, exts] of Object.entries({ ...MODEL3D_FORMATS, ...DRAWING_3D_FORMATS })) if ((exts as readonly string[]).includes(ext)) return format as Model3dFormat;
  return null;
}

export interface ConvertOptions {
  limits?: Partial<Model3dLimits>;
  /** files given beside the model (an OBJ's MTL, a glTF's .bin), by name */
  extraFiles?: Record<string, Uint8Array> | Map<string, Uint8Array>;
  /** a PNG thumbnail of this many pixels square (isometric, flat-shaded, transparent background) */
  thumbnail?: number;
  /** told of each stage and the percent done (not passed into a worker thread: convertInWorker forwards its own) */
  onProgress?: OnModel3dProgress;
  /** a scene with more nodes holding meshes than this is merged into few primitives (glb/batch.ts); default BATCH_ABOVE */
  batchAbove?: number;
}

export interface ConvertResult {
  glb: Uint8Array;
  /** a big model's coarse level of detail: a small GLB of the same nodes with simplified meshes (ModelStats.lod) */
  lod?: Uint8Array;
  stats: ModelStats;
  tree: ModelNode[];
  format: Model3dFormat;
  thumbnail?: Uint8Array;
}

/** Each importer is loaded with its first file: a thread converting an STL never loads OpenCascade or web-ifc. */
async function importAny(format: Model3dFormat, input: Uint8Array, name: string, limits: Model3dLimits, extra: Map<string, Uint8Array>, parts: ImportProgress): Promise<Scene | Document> {
  const budget = new TriangleBudget(limits);
  const base = name.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '') || name;
  switch (format) {
    case 'step':
    case 'iges':
    case 'brep':
      return (await import('./importers/occt.ts')).importOcct(input, format, base, budget, parts);
    case 'ifc':
      return (await import('./importers/ifc.ts')).importIfc(input, base, budget, parts);
    case '3dm':
      return (await import('./importers/rhino.ts')).importRhino(input, base, budget, parts);
    case 'stl':
      return (await import('./importers/stl.ts')).importStl(input, base, limits, budget);
    case 'obj':
      return (await import('./importers/obj.ts')).importObj(input, base, extra, budget);
    case 'ply':
      return (await import('./importers/ply.ts')).importPly(input, base, limits, budget);
    case 'off':
      return (await import('./importers/off.ts')).importOff(input, base, limits, budget);
    case 'gltf':
    case 'glb':
      return (await import('./importers/gltf.ts')).importGltf(input, format === 'glb', extra, limits);
    case 'dwg':
    case 'dxf':
      return (await import('./importers/drawing.ts')).importDrawing(input, name.replace(/^.*[\\/]/, ''), base, budget, limits.maxTriangles);
    case 'fbx':
    case 'dae':
    case '3ds':
    case '3mf': {
      const doc = await (await import('./importers/assimp.ts')).importAssimp(input, name.replace(/^.*[\\/]/, ''), extra, limits);
      // assimp's root ("RootNode", "<3DSDummyRoot>", "Scene" …) takes the file's name
      const roots = doc.getRoot().getDefaultScene()?.listChildren() ?? [];
      if (roots.length === 1) roots[0].setName(base);
      return doc;
    }
  }
}

/**
 * One 3D model (its bytes and file name) as a GLB: node names, hierarchy and properties (in each node's `extras`)
 * kept, welded, quantized and compressed with EXT_meshopt_compression. Errors are Model3dError with a kind:
 * 'too-large' | 'bad-input' | 'unsupported' (and 'timeout' from convertInWorker).
 */
export async function convertToGlb(input: Uint8Array, name: string, o: ConvertOptions = {}): Promise<ConvertResult> {
  const limits = withDefaults(o.limits);
  const format = formatOf(name);
  if (!format) throw unsupported(`${name}: not a 3D format we convert`);
  if (!input.length) throw badInput(`${name} is empty`);
  const extra = o.extraFiles instanceof Map ? o.extraFiles : new Map(Object.entries(o.extraFiles ?? {}));
  // the files given beside it (an MTL, a glTF's buffers, textures) count with it
  const total = [...extra.values()].reduce((s, b) => s + b.length, input.length);
  if (total > limits.maxInputBytes) throw tooLarge(`${name} is ${total} bytes with the files beside it, more than ${limits.maxInputBytes}`);
  if (WASM_FORMATS.has(format) && input.length > limits.maxWasmInputBytes) throw tooLarge(`${name} is ${input.length} bytes, more than ${limits.maxWasmInputBytes} for ${format.toUpperCase()}`);
  const progress = progressReporter(o.onProgress);
  try {
    progress.stage('parse');
    const imported = await importAny(format, input, name, limits, extra, progress.parts);
    progress.stage('document');
    // many elements are merged into few primitives (their identity kept as triangle ranges), few keep a mesh each
    const { doc, elements } = !('roots' in imported) ? { doc: imported } : meshNodeCount(imported) > (o.batchAbove ?? BATCH_ABOVE) ? sceneToBatches(imported) : { doc: sceneToDocument(imported) };
    return { ...(await finishGlb(doc, limits, o.thumbnail, progress.stage, elements)), format };
  } catch (e) {
    throw asModel3dError(e);
  }
}
