// glTF/GLB passed through gltf-transform: names, hierarchy and extras kept; re-compressed by the common finish.
// A .gltf's external buffers and images are taken from the files given beside it (never fetched).
import type { Document } from '@gltf-transform/core';
import { createRequire } from 'node:module';
import { badInput, unsupported } from '../errors.ts';
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

export async function importGltf(input: Uint8Array, binary: boolean, extraFiles: Map<string, Uint8Array>): Promise<Document> {
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
