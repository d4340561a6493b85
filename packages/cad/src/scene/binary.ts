import type { Scene, SceneMeta } from './scene.types.ts';
import { withPerVertexViews, type SceneArrays } from './runs.ts';

const MAGIC = 0x53444143; // 'CADS' little-endian
/**
 * 6: instanced block meshes (a mesh per block variant inserted often, a placement per INSERT); since engine e6.3 the
 * scenes of drawings with wipeouts put depth tiers in spare fields (scene/tiers.ts); a scene without them reads as
 * tier 0 everywhere, so the format stays (and every other drawing's scene is byte for byte what it was). 5: exact curves
 * (records the viewer tessellates at the zoom of each frame). 4: sent in batches (a head, slices of
 * the large arrays interleaved batch by batch, the entity table last), so a viewer draws the first batch while the
 * rest arrives. 3: colours and weights per primitive, entities as runs, instanced glyphs, all in one block.
 */
export const SCENE_FORMAT = 6;

const pad4 = (n: number) => (n + 3) & ~3;

export type SceneArrayKey = Exclude<keyof SceneArrays, 'meta'>;
type ArrayType = Float32ArrayConstructor | Uint8ArrayConstructor | Uint32ArrayConstructor;

/**
 * The typed arrays in wire order. `per`: elements of one primitive (a segment, a triangle, a glyph character) when
 * the array is sent in slices, batch by batch; arrays without it come whole in the first batch (they are small, or
 * needed whole: entity runs, glyph meshes). Arrays sliced with the same `of` are cut at the same primitive, so a
 * batch's segments arrive with their colours and weights.
 */
const ARRAYS: { key: SceneArrayKey; T: ArrayType; per?: number; of?: 'seg' | 'tri' | 'glyph' }[] = [
  { key: 'linePositions', T: Float32Array, per: 4, of: 'seg' },
  { key: 'lineSegmentColors', T: Uint8Array, per: 4, of: 'seg' },
  { key: 'lineEntityRuns', T: Uint32Array },
  { key: 'lineWeights', T: Uint8Array, per: 1, of: 'seg' },
  { key: 'triPositions', T: Float32Array, per: 6, of: 'tri' },
  { key: 'triangleColors', T: Uint8Array, per: 4, of: 'tri' },
  { key: 'triEntityRuns', T: Uint32Array },
  { key: 'glyphLinePositions', T: Float32Array },
  { key: 'glyphTriPositions', T: Float32Array },
  { key: 'glyphInstances', T: Float32Array, per: 8, of: 'glyph' },
  { key: 'glyphInstanceEntities', T: Uint32Array, per: 1, of: 'glyph' },
  // exact curves come whole in the first batch (a few bytes a curve): the viewer's curve buckets need all their records
  { key: 'curves', T: Float32Array },
  { key: 'curveEntities', T: Uint32Array },
  // instanced block meshes and their placements come whole in the first batch too: a mesh is drawn with all its instances
  { key: 'blockLinePositions', T: Float32Array },
  { key: 'blockLineColors', T: Uint8Array },
  { key: 'blockLineLayers', T: Uint32Array },
  { key: 'blockLineWeights', T: Uint8Array },
  { key: 'blockTriPositions', T: Float32Array },
  { key: 'blockTriColors', T: Uint8Array },
  { key: 'blockTriLayers', T: Uint32Array },
  { key: 'blockInstances', T: Float32Array },
  { key: 'blockInstanceEntities', T: Uint32Array },
];

/** record kinds after the head */
const SLICE = 1, BATCH_END = 2, TAIL = 3, END = 4;

/** A batch carries about this many bytes of the sliced arrays; a scene smaller than that is one batch. */
const BATCH_BYTES = 2 << 20;
const MAX_BATCHES = 256;

/** What comes first: everything but the entity table and texts, which only picking, properties and search need. */
type SceneHead = Omit<SceneMeta, 'entities' | 'texts'> & { arrays: number[] };

/**
 * The scene's wire and cache form (format 4): magic, version, the head (meta without entities and texts, plus every
 * array's byte length), then records `[kind, array, byte offset, length, payload…]`, each 4-byte aligned: batch 1
 * holds the small arrays whole and the first slice of each large one, every later batch the next slices (segments,
 * triangles and characters in the order the compiler wrote them: by layer), then the entities and texts as JSON.
 */
export function encodeScene(s: Scene, o: { batchBytes?: number } = {}): Uint8Array {
  const { entities, texts, ...rest } = s.meta;
  const arrays = ARRAYS.map(({ key }) => s[key] as ArrayBufferView);
  const head = new TextEncoder().encode(JSON.stringify({ ...rest, arrays: arrays.map((a) => a.byteLength) } satisfies SceneHead));
  const tail = new TextEncoder().encode(JSON.stringify({ entities, texts }));
  const count = (of: string) => {
    const a = ARRAYS.findIndex((x) => x.of === of);
    return (arrays[a] as Float32Array).length / ARRAYS[a].per!;
  };
  const prims = { seg: count('seg'), tri: count('tri'), glyph: count('glyph') };
  const sliced = arrays.reduce((n, a, i) => n + (ARRAYS[i].per ? a.byteLength : 0), 0);
  const batches = Math.max(1, Math.min(MAX_BATCHES, Math.ceil(sliced / (o.batchBytes ?? BATCH_BYTES))));

  const records: [number, number, number, Uint8Array][] = [];
  const bytesOf = (a: ArrayBufferView, from = 0, to = a.byteLength) => new Uint8Array(a.buffer, a.byteOffset + from, to - from);
  for (let b = 0; b < batches; b++) {
    ARRAYS.forEach((d, i) => {
      const a = arrays[i] as Float32Array;
      if (!d.per) {
        if (b === 0) records.push([SLICE, i, 0, bytesOf(a)]);
        return;
      }
      const n = prims[d.of!];
      const from = Math.floor((n * b) / batches), to = Math.floor((n * (b + 1)) / batches);
      if (to > from) records.push([SLICE, i, from * d.per * a.BYTES_PER_ELEMENT, bytesOf(a, from * d.per * a.BYTES_PER_ELEMENT, to * d.per * a.BYTES_PER_ELEMENT)]);
    });
    records.push([BATCH_END, b, 0, new Uint8Array(0)]);
  }
  records.push([TAIL, 0, 0, tail], [END, 0, 0, new Uint8Array(0)]);

  let size = 12 + pad4(head.length);
  for (const r of records) size += 16 + pad4(r[3].length);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, SCENE_FORMAT, true);
  view.setUint32(8, head.length, true);
  out.set(head, 12);
  let at = 12 + pad4(head.length);
  for (const [kind, a, offset, payload] of records) {
    view.setUint32(at, kind, true);
    view.setUint32(at + 4, a, true);
    view.setUint32(at + 8, offset, true);
    view.setUint32(at + 12, payload.length, true);
    out.set(payload, at + 16);
    at += 16 + pad4(payload.length);
  }
  return out;
}

/** What `SceneReader.push` saw in the bytes given to it, in order. */
export type SceneEvent =
  | { kind: 'head' }
  | { kind: 'slice'; key: SceneArrayKey; offset: number; length: number }
  | { kind: 'batch'; index: number }
  | { kind: 'tail' }
  | { kind: 'end' };

/**
 * Reads a scene as its bytes arrive (any chunking). After the head, `scene` has every array at its full size,
 * zero-filled, and `loaded` says how many bytes of each have arrived (slices of one array come in order); the
 * entity table and texts are empty until the tail. A viewer can draw after every batch.
 */
export class SceneReader {
  scene: Scene | null = null;
  /** bytes of each array received, a prefix */
  readonly loaded = {} as Record<SceneArrayKey, number>;
  batches = 0;
  done = false;
  private pending: Uint8Array[] = [];

  /** every array has all its bytes: the last batch is in (the entity table and texts may still be on their way) */
  get allBatches(): boolean {
    if (this.done) return true;
    if (!this.scene) return false;
    for (const d of ARRAYS) if (this.loaded[d.key] !== (this.scene[d.key] as ArrayBufferView).byteLength) return false;
    return true;
  }
  private pendingBytes = 0;

  /** Takes the next bytes; returns what they completed. Throws on bytes that are not a scene of this format. */
  push(chunk: Uint8Array): SceneEvent[] {
    if (this.done) return chunk.length ? this.fail('bytes after the end of the scene') : [];
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    const events: SceneEvent[] = [];
    for (;;) {
      if (!this.scene) {
        if (this.pendingBytes < 12) return events;
        const h = this.peek(12);
        const v = new DataView(h.buffer, h.byteOffset, 12);
        if (v.getUint32(0, true) !== MAGIC) this.fail('not a scene');
        if (v.getUint32(4, true) !== SCENE_FORMAT) this.fail('scene version mismatch');
        const len = v.getUint32(8, true);
        if (this.pendingBytes < 12 + pad4(len)) return events;
        const bytes = this.take(12 + pad4(len));
        this.start(JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + len))) as SceneHead);
        events.push({ kind: 'head' });
        continue;
      }
      if (this.done || this.pendingBytes < 16) return events;
      const h = this.peek(16);
      const v = new DataView(h.buffer, h.byteOffset, 16);
      const kind = v.getUint32(0, true), a = v.getUint32(4, true), offset = v.getUint32(8, true), len = v.getUint32(12, true);
      if (this.pendingBytes < 16 + pad4(len)) return events;
      const payload = this.take(16 + pad4(len)).subarray(16, 16 + len);
      if (kind === SLICE) {
        const d = ARRAYS[a];
        if (!d) this.fail('bad scene record');
        const target = this.scene[d.key] as ArrayBufferView;
        if (offset !== this.loaded[d.key] || offset + len > target.byteLength) this.fail('bad scene slice');
        new Uint8Array(target.buffer, target.byteOffset, target.byteLength).set(payload, offset);
        this.loaded[d.key] = offset + len;
        events.push({ kind: 'slice', key: d.key, offset, length: len });
      } else if (kind === BATCH_END) {
        this.batches++;
        events.push({ kind: 'batch', index: a });
      } else if (kind === TAIL) {
        const t = JSON.parse(new TextDecoder().decode(payload)) as Pick<SceneMeta, 'entities' | 'texts'>;
        this.scene.meta.entities = t.entities;
        this.scene.meta.texts = t.texts;
        events.push({ kind: 'tail' });
      } else if (kind === END) {
        for (const d of ARRAYS) if (this.loaded[d.key] !== (this.scene[d.key] as ArrayBufferView).byteLength) this.fail('truncated scene');
        this.done = true;
        events.push({ kind: 'end' });
        if (this.pendingBytes) this.fail('bytes after the end of the scene');
      } else this.fail('bad scene record');
    }
  }

  private start(head: SceneHead) {
    const { arrays, ...meta } = head;
    if (!Array.isArray(arrays) || arrays.length !== ARRAYS.length) this.fail('bad scene head');
    const s = { meta: { ...meta, entities: [], texts: [] } } as unknown as SceneArrays;
    ARRAYS.forEach(({ key, T }, i) => {
      const bytes = arrays[i];
      if (!(bytes >= 0) || bytes % T.BYTES_PER_ELEMENT) this.fail('bad scene head');
      (s as unknown as Record<string, ArrayBufferView>)[key] = new T(bytes / T.BYTES_PER_ELEMENT);
      this.loaded[key] = 0;
    });
    this.scene = withPerVertexViews(s);
  }

  private fail(why: string): never {
    throw new Error(why);
  }

  /** the first n pending bytes, joined only when they span chunks */
  private peek(n: number): Uint8Array {
    if (this.pending[0].length >= n) return this.pending[0];
    const out = new Uint8Array(n);
    let at = 0;
    for (const c of this.pending) {
      const k = Math.min(c.length, n - at);
      out.set(c.subarray(0, k), at);
      at += k;
      if (at === n) break;
    }
    return out;
  }

  private take(n: number): Uint8Array {
    const first = this.pending[0];
    let out: Uint8Array;
    if (first.length >= n) {
      out = first.subarray(0, n);
      if (first.length === n) this.pending.shift();
      else this.pending[0] = first.subarray(n);
    } else {
      out = new Uint8Array(n);
      let at = 0;
      while (at < n) {
        const c = this.pending[0];
        const k = Math.min(c.length, n - at);
        out.set(c.subarray(0, k), at);
        at += k;
        if (k === c.length) this.pending.shift();
        else this.pending[0] = c.subarray(k);
      }
    }
    this.pendingBytes -= n;
    return out;
  }
}

/** The whole scene from its bytes (the arrays are copies: the bytes may be dropped). */
export function decodeScene(bytes: Uint8Array): Scene {
  const r = new SceneReader();
  r.push(bytes);
  if (!r.done || !r.scene) throw new Error(r.scene ? 'truncated scene' : bytes.length >= 12 ? 'truncated scene' : 'not a scene');
  return r.scene;
}

/** Primitives (segments, triangles, glyph characters) whose data has fully arrived, for drawing a scene in part. */
export function loadedPrimitives(r: Pick<SceneReader, 'loaded'>): { segments: number; triangles: number; glyphs: number; weights: number } {
  const of = (key: SceneArrayKey) => {
    const d = ARRAYS.find((x) => x.key === key)!;
    return Math.floor(r.loaded[key] / (d.T.BYTES_PER_ELEMENT * d.per!));
  };
  return {
    segments: Math.min(of('linePositions'), of('lineSegmentColors')),
    weights: of('lineWeights'),
    triangles: Math.min(of('triPositions'), of('triangleColors')),
    glyphs: of('glyphInstances'),
  };
}
