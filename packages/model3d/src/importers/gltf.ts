// glTF/GLB passed through gltf-transform: names, hierarchy and extras kept; re-compressed by the common finish.
// A .gltf's external buffers and images are taken from the files given beside it (never fetched).
import type { Document } from '@gltf-transform/core';
import { badInput, unsupported } from '../errors.ts';
import { gltfIO } from '../glb/finish.ts';

export async function importGltf(input: Uint8Array, binary: boolean, extraFiles: Map<string, Uint8Array>): Promise<Document> {
  const io = await gltfIO();
  try {
    if (binary) return await io.readBinary(input);
    const json = JSON.parse(new TextDecoder().decode(input));
    const resources: Record<string, Uint8Array<ArrayBuffer>> = {};
    for (const b of [...(json.buffers ?? []), ...(json.images ?? [])]) {
      if (typeof b.uri !== 'string' || b.uri.startsWith('data:')) continue;
      const bytes = extraFiles.get(decodeURIComponent(b.uri)) ?? extraFiles.get(decodeURIComponent(b.uri).split('/').pop()!);
      if (!bytes) throw badInput(`glTF names ${b.uri}, which was not given with it`);
      resources[b.uri] = bytes as Uint8Array<ArrayBuffer>;
    }
    return await io.readJSON({ json, resources });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/Missing (required )?extension|KHR_draco/i.test(message)) throw unsupported(`glTF uses an extension we cannot read: ${message}`);
    if (e instanceof Error && e.name === 'Model3dError') throw e;
    throw badInput(`glTF could not be read: ${message}`);
  }
}
