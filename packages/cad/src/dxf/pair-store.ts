import type { Entity, Pair } from '../model/drawing.ts';
import { createPairCache } from './pair-cache.ts';

/**
 * Entity pairs kept in columns (codes, numbers, strings) shared by the whole drawing, instead of one
 * [code, value] array per pair: a 100 MB drawing holds millions of pairs, and one small array (plus a boxed
 * double) each was most of the reader's time (allocation, garbage collection) and of the model's memory.
 * `DxfEntity.pairs` turns an entity's slice into the usual `Pair[]` the first time anyone asks, once;
 * `pairValue` answers from the columns without that.
 */
export class PairChunk {
  readonly codes: Int32Array;
  readonly nums: Float64Array;
  /** the string values, at the index of their pair; holes where the value is a number */
  readonly strs: (string | undefined)[];
  n = 0;
  constructor(readonly size: number) {
    this.codes = new Int32Array(size);
    this.nums = new Float64Array(size);
    this.strs = new Array(size);
  }
}

const FIRST_CHUNK = 1024;
const MAX_CHUNK = 65536;

export function createPairStore() {
  let chunk = new PairChunk(FIRST_CHUNK);
  let start = 0;
  const cache = createPairCache();
  return {
    cache,
    /** the next pushes belong to one new entity */
    begin() {
      start = chunk.n;
    },
    pushNum(code: number, value: number) {
      if (chunk.n === chunk.size) grow();
      const i = chunk.n++;
      chunk.codes[i] = code;
      chunk.nums[i] = value;
    },
    pushStr(code: number, value: string) {
      if (chunk.n === chunk.size) grow();
      const i = chunk.n++;
      chunk.codes[i] = code;
      chunk.strs[i] = value;
    },
    /** the chunk and range of the entity begun last */
    end(): [PairChunk, number, number] {
      return [chunk, start, chunk.n];
    },
  };

  /** a full chunk: the entity being read moves, whole, into a new one (an entity never spans two) */
  function grow() {
    const have = chunk.n - start;
    const next = new PairChunk(Math.max(Math.min(chunk.size * 2, MAX_CHUNK), have * 2));
    next.codes.set(chunk.codes.subarray(start, chunk.n));
    next.nums.set(chunk.nums.subarray(start, chunk.n));
    for (let i = 0; i < have; i++) next.strs[i] = chunk.strs[start + i];
    // the moved pairs no longer belong to the old chunk
    for (let i = start; i < chunk.n; i++) chunk.strs[i] = undefined;
    chunk.n = start;
    next.n = have;
    chunk = next;
    start = 0;
  }
}

export type PairCache = ReturnType<typeof createPairCache>;

/**
 * An entity read from DXF. Behaves as the plain `Entity` (its fields are own properties; `pairs` reads and
 * writes as an array and is in JSON), with its pairs in a shared PairChunk until first asked for.
 */
export class DxfEntity implements Entity {
  layer = '0';
  color = 256;
  paperSpace = false;
  declare handle?: string;
  declare trueColor?: number;
  declare linetype?: string;
  declare lineweight?: number;
  declare owner?: string;
  declare children?: Entity[];
  #chunk: PairChunk | null;
  #start: number;
  #end: number;
  #cache: PairCache | null;
  #pairs: Pair[] | null = null;

  constructor(
    public type: string,
    chunk: PairChunk,
    start: number,
    end: number,
    cache: PairCache,
  ) {
    this.#chunk = chunk;
    this.#start = start;
    this.#end = end;
    this.#cache = cache;
  }

  get pairs(): Pair[] {
    if (this.#pairs) return this.#pairs;
    const c = this.#chunk!;
    const out: Pair[] = new Array(this.#end - this.#start);
    for (let i = this.#start, k = 0; i < this.#end; i++, k++) {
      const s = c.strs[i];
      out[k] = this.#cache!.get(c.codes[i], s === undefined ? c.nums[i] : s);
    }
    this.#chunk = null;
    this.#cache = null;
    return (this.#pairs = out);
  }

  set pairs(v: Pair[]) {
    this.#pairs = v;
    this.#chunk = null;
    this.#cache = null;
  }

  /** the value of the first pair with this code (pairValue), without building `pairs` */
  first(code: number): string | number | undefined {
    const c = this.#chunk;
    if (!c) return this.pairs.find((p) => p[0] === code)?.[1];
    for (let i = this.#start; i < this.#end; i++) {
      if (c.codes[i] !== code) continue;
      const s = c.strs[i];
      return s === undefined ? c.nums[i] : s;
    }
    return undefined;
  }

  toJSON() {
    return { ...this, pairs: this.pairs };
  }
}
