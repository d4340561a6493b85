import type { Scene, SceneMeta } from './scene.types.ts';

const MAGIC = 0x53444143; // 'CADS' little-endian
const VERSION = 2;

const pad4 = (n: number) => (n + 3) & ~3;

/**
 * The scene's wire and cache form: magic, version, meta JSON, then the seven typed arrays, each length-prefixed
 * and 4-byte aligned so the browser maps them as typed-array views without copying.
 */
export function encodeScene(s: Scene): Uint8Array {
  const meta = new TextEncoder().encode(JSON.stringify(s.meta));
  const arrays = [s.linePositions, s.lineColors, s.lineEntities, s.triPositions, s.triColors, s.triEntities, s.lineWeights];
  let size = 12 + pad4(meta.length);
  for (const a of arrays) size += 4 + pad4(a.byteLength);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, meta.length, true);
  out.set(meta, 12);
  let at = 12 + pad4(meta.length);
  for (const a of arrays) {
    view.setUint32(at, a.byteLength, true);
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at + 4);
    at += 4 + pad4(a.byteLength);
  }
  return out;
}

export function decodeScene(bytes: Uint8Array): Scene {
  // views need a 4-aligned offset: copy once if the caller's buffer is not aligned
  const b = bytes.byteOffset % 4 ? bytes.slice() : bytes;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error('not a scene');
  if (view.getUint32(4, true) !== VERSION) throw new Error('scene version mismatch');
  const metaLen = view.getUint32(8, true);
  const meta = JSON.parse(new TextDecoder().decode(b.subarray(12, 12 + metaLen))) as SceneMeta;
  let at = 12 + pad4(metaLen);
  const next = () => {
    const len = view.getUint32(at, true);
    const start = b.byteOffset + at + 4;
    if (at + 4 + len > b.byteLength) throw new Error('truncated scene');
    at += 4 + pad4(len);
    return { start, len };
  };
  const f32 = () => { const { start, len } = next(); return new Float32Array(b.buffer, start, len / 4); };
  const u8 = () => { const { start, len } = next(); return new Uint8Array(b.buffer, start, len); };
  const u32 = () => { const { start, len } = next(); return new Uint32Array(b.buffer, start, len / 4); };
  return { meta, linePositions: f32(), lineColors: u8(), lineEntities: u32(), triPositions: f32(), triColors: u8(), triEntities: u32(), lineWeights: u8() };
}
