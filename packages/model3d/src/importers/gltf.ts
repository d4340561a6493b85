// glTF/GLB passed through gltf-transform: names, hierarchy and extras kept; re-compressed by the common finish.
// A .gltf's external buffers and images are taken from the files given beside it (never fetched).
import type { Document } from '@gltf-transform/core';
import { createRequire } from 'node:module';
import { badInput, unsupported } from '../errors.ts';
import type { Model3dLimits } from '../limits.ts';
import { checkCounts } from '../scene.ts';
import { gltfIO } from '../glb/finish.ts';

const require = createRequire(import.meta.url);
let draco: Promise<unknown> | null = null;

/** the glTF's JSON text: a .gltf's bytes, a GLB's first chunk */
function jsonText(input: Uint8Array, binary: boolean): string {
  if (!binary) return new TextDecoder().decode(input);
  if (input.length < 20) return '';
  const length = new DataView(input.buffer, input.byteOffset, input.byteLength).getUint32(12, true);
  return new TextDecoder().decode(input.subarray(20, 20 + Math.min(length, input.length - 20)));
}

/**
 * The triangles and vertices the glTF's JSON states for its meshes (each mesh once, however many nodes place it):
 * checked against the limits before any buffer is decoded.
 */
function statedCounts(text: string): { triangles: number; vertices: number } {
  let json: { accessors?: { count?: number }[]; meshes?: { primitives?: { mode?: number; indices?: number; attributes?: { POSITION?: number } }[] }[] };
  try {
    json = JSON.parse(text);
  } catch {
    return { triangles: 0, vertices: 0 }; // the reader says what is wrong with it
  }
  const count = (i: number | undefined) => (i === undefined ? 0 : Number(json.accessors?.[i]?.count) || 0);
  let triangles = 0;
  let vertices = 0;
  for (const m of json.meshes ?? [])
    for (const p of m.primitives ?? []) {
      const v = count(p.attributes?.POSITION);
      vertices += v;
      if ((p.mode ?? 4) === 4) triangles += Math.floor((p.indices === undefined ? v : count(p.indices)) / 3);
    }
  return { triangles, vertices };
}

export async function importGltf(input: Uint8Array, binary: boolean, extraFiles: Map<string, Uint8Array>, limits: Model3dLimits): Promise<Document> {
  const stated = statedCounts(jsonText(input, binary));
  checkCounts(limits, stated.triangles, stated.vertices);
  const io = await gltfIO();
  // Draco's decoder (draco3d, its WASM from node_modules) is started only for a file that needs it
  if (jsonText(input, binary).includes('KHR_draco_mesh_compression')) {
    draco ??= (require('draco3d') as { createDecoderModule(): Promise<unknown> }).createDecoderModule();
    io.registerDependencies({ 'draco3d.decoder': await draco });
  }
  try {
    const doc = await read(io, input, binary, extraFiles);
    // decoded on reading: written again with meshopt, not Draco
    for (const e of doc.getRoot().listExtensionsUsed()) if (e.extensionName === 'KHR_draco_mesh_compression') e.dispose();
    return doc;
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/Missing (required )?extension/i.test(message)) throw unsupported(`glTF uses an extension we cannot read: ${message}`);
    if (e instanceof Error && e.name === 'Model3dError') throw e;
    throw badInput(`glTF could not be read: ${message}`);
  }
}

/** a GLB, or a .gltf with its buffers and images from the files given beside it */
function read(io: Awaited<ReturnType<typeof gltfIO>>, input: Uint8Array, binary: boolean, extraFiles: Map<string, Uint8Array>): Promise<Document> {
  if (binary) return io.readBinary(input);
  const json = JSON.parse(new TextDecoder().decode(input));
  const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
  for (const b of [...(json.buffers ?? []), ...(json.images ?? [])]) {
    if (typeof b.uri !== 'string' || b.uri.startsWith('data:')) continue;
    const bytes = extraFiles.get(decodeURIComponent(b.uri)) ?? extraFiles.get(decodeURIComponent(b.uri).split('/').pop()!);
    if (!bytes) throw badInput(`glTF names ${b.uri}, which was not given with it`);
    resources[b.uri] = bytes as Uint8Array<ArrayBuffer>;
  }
  return io.readJSON({ json, resources });
}
