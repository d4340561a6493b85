import type { Scene, SceneMeta } from './scene.types.ts';
import { withPerVertexViews, type SceneArrays } from './runs.ts';

const MAGIC = 0x53444143; // 'CADS' little-endian
/**
 * 4: exact curves (records drawn at the zoom of each frame); 3: colours and weights per segment / triangle, entities
 * as runs, instanced glyphs (2 had colours per vertex)
 */
const VERSION = 4;

const pad4 = (n: number) => (n + 3) & ~3;

type ArrayKey = Exclude<keyof SceneArrays, 'meta'>;
/** the typed arrays in wire order, with their element types */
const ARRAYS: [ArrayKey, Float32ArrayConstructor | Uint8ArrayConstructor | Uint32ArrayConstructor][] = [
  ['linePositions', Float32Array],
  ['lineSegmentColors', Uint8Array],
  ['lineEntityRuns', Uint32Array],
  ['lineWeights', Uint8Array],
  ['triPositions', Float32Array],
  ['triangleColors', Uint8Array],
  ['triEntityRuns', Uint32Array],
  ['glyphLinePositions', Float32Array],
  ['glyphTriPositions', Float32Array],
  ['glyphInstances', Float32Array],
  ['glyphInstanceEntities', Uint32Array],
  ['curves', Float32Array],
  ['curveEntities', Uint32Array],
];

/**
 * The scene's wire and cache form: magic, version, meta JSON, then the typed arrays, each length-prefixed
 * and 4-byte aligned so the browser maps them as typed-array views without copying.
 */
export function encodeScene(s: Scene): Uint8Array {
  const meta = new TextEncoder().encode(JSON.stringify(s.meta));
  const arrays = ARRAYS.map(([k]) => s[k]);
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

/** Views into `bytes` (no copy unless its offset is not 4-aligned): keep the bytes, they are the scene. */
export function decodeScene(bytes: Uint8Array): Scene {
  // views need a 4-aligned offset: copy once if the caller's buffer is not aligned
  const b = bytes.byteOffset % 4 ? bytes.slice() : bytes;
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error('not a scene');
  if (view.getUint32(4, true) !== VERSION) throw new Error('scene version mismatch');
  const metaLen = view.getUint32(8, true);
  const meta = JSON.parse(new TextDecoder().decode(b.subarray(12, 12 + metaLen))) as SceneMeta;
  let at = 12 + pad4(metaLen);
  const s = { meta } as SceneArrays;
  for (const [key, T] of ARRAYS) {
    if (at + 4 > b.byteLength) throw new Error('truncated scene');
    const len = view.getUint32(at, true);
    if (at + 4 + len > b.byteLength) throw new Error('truncated scene');
    (s as unknown as Record<string, ArrayBufferView>)[key] = new T(b.buffer as ArrayBuffer, b.byteOffset + at + 4, len / T.BYTES_PER_ELEMENT);
    at += 4 + pad4(len);
  }
  return withPerVertexViews(s);
}
