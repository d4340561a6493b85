// The files a model names beside itself (an OBJ's MTL, an MTL's texture images, a .gltf's buffers and images): the
// server looks them up in the model's folder and hands them to convertToGlb as `extraFiles`.
import { diffuseMapsOf, mtlNamesOf } from './importers/obj.ts';

/** the names of files `name` (with its bytes) refers to, as written in it (relative paths kept) */
export function companionNamesOf(name: string, bytes: Uint8Array): string[] {
  const ext = name.toLowerCase().split('.').pop();
  const text = () => new TextDecoder().decode(bytes);
  if (ext === 'obj') return mtlNamesOf(text());
  if (ext === 'mtl') return [...new Set(diffuseMapsOf(text()).values())];
  if (ext === 'gltf') {
    try {
      const json = JSON.parse(text()) as { buffers?: Array<{ uri?: unknown }>; images?: Array<{ uri?: unknown }> };
      return [...(json.buffers ?? []), ...(json.images ?? [])].map((b) => b.uri).filter((u): u is string => typeof u === 'string' && !u.startsWith('data:')).map((u) => decodeURIComponent(u));
    } catch {
      return [];
    }
  }
  return [];
}
