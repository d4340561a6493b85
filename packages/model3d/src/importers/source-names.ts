// The object names assimp drops, read from the source itself: a 3MF's <object name> (assimp names its nodes
// "Object_<id>") and a 3DS's named objects (without a keyframer section assimp names them "3DSMesh_<n>").
import { unzipSync } from 'three/addons/libs/fflate.module.js';
import { unescapeXml } from '../xml-text.ts';

/** 3DS chunks: id (u16) then length (u32, with the 6-byte header) */
function* chunks(b: Uint8Array, from: number, to: number): Generator<{ id: number; body: number; end: number }> {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  let at = from;
  while (at + 6 <= to) {
    const id = dv.getUint16(at, true);
    const len = dv.getUint32(at + 2, true);
    if (len < 6 || at + len > to) return;
    yield { id, body: at + 6, end: at + len };
    at += len;
  }
}

/** a 3DS's triangle-mesh objects' names in file order: assimp's 3DSMesh_<n> is the n-th */
function tdsNames(b: Uint8Array): Map<string, string> {
  const names = new Map<string, string>();
  let n = 0;
  for (const main of chunks(b, 0, b.length)) {
    if (main.id !== 0x4d4d) continue;
    for (const editor of chunks(b, main.body, main.end)) {
      if (editor.id !== 0x3d3d) continue;
      for (const object of chunks(b, editor.body, editor.end)) {
        if (object.id !== 0x4000) continue;
        const zero = b.indexOf(0, object.body);
        if (zero < 0 || zero >= object.end) continue;
        const name = new TextDecoder('latin1').decode(b.subarray(object.body, zero));
        for (const sub of chunks(b, zero + 1, object.end)) if (sub.id === 0x4100) names.set(`3DSMesh_${n++}`, name);
      }
    }
  }
  return names;
}

/** a 3MF's named objects: assimp's Object_<id> */
function threeMfNames(b: Uint8Array): Map<string, string> {
  const names = new Map<string, string>();
  const files = unzipSync(b, { filter: (f) => f.name.toLowerCase().endsWith('.model') && f.originalSize < 256 * 1024 * 1024 });
  for (const bytes of Object.values(files)) {
    const xml = new TextDecoder().decode(bytes);
    for (const m of xml.matchAll(/<object\b([^>]*)>/g)) {
      const id = /\bid\s*=\s*"([^"]*)"/.exec(m[1])?.[1];
      const name = /\bname\s*=\s*"([^"]*)"/.exec(m[1])?.[1];
      if (id && name) names.set(`Object_${id}`, unescapeXml(name));
    }
  }
  return names;
}

/** assimp's node name → the object's own name; empty when the source names none (or cannot be read: assimp says why) */
export function sourceNames(input: Uint8Array, format: '3ds' | '3mf'): Map<string, string> {
  try {
    return format === '3ds' ? tdsNames(input) : threeMfNames(input);
  } catch {
    return new Map();
  }
}
