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
  /** the drawing's shared tuples, for materialising (one reference per chunk, not per entity) */
  cache!: PairCache;
  /** per pair: code << 1, plus 1 when the value is a string (then `nums` holds its index in `strs`) */
  readonly codes: Int32Array;
  readonly nums: Float64Array;
  readonly strs: string[] = [];
  /** group codes too large for `codes` (only corrupt files have them), by pair index */
  big: Map<number, number> | null = null;
  n = 0;
  constructor(readonly size: number) {
    this.codes = new Int32Array(size);
    this.nums = new Float64Array(size);
  }

  code(i: number): number {
    const c = this.codes[i];
    return (c | 1) === (BIG | 1) ? this.big!.get(i)! : c >> 1;
  }

  value(i: number): string | number {
    return this.codes[i] & 1 ? this.strs[this.nums[i]] : this.nums[i];
  }
}

/** marks a pair whose code is in `big` (even: it reads as a number pair, the value is in `nums`) */
const BIG = -0x80000000;
const CODE_LIMIT = 0x3fffffff;

const FIRST_CHUNK = 1024;
const MAX_CHUNK = 65536;

export function createPairStore() {
  const cache = createPairCache();
  let chunk = new PairChunk(FIRST_CHUNK);
  chunk.cache = cache;
  const store = {
    chunk,
    /** the pairs of the entity begun last are chunk[start, chunk.n) */
    start: 0,
    /** the next pushes belong to one new entity */
    begin() {
      store.start = chunk.n;
    },
    pushNum(code: number, value: number) {
      if (chunk.n === chunk.size) grow();
      const i = chunk.n++;
      if (code > CODE_LIMIT || code < -CODE_LIMIT) return odd(i, code, value);
      chunk.codes[i] = code << 1;
      chunk.nums[i] = value;
    },
    pushStr(code: number, value: string) {
      if (chunk.n === chunk.size) grow();
      const i = chunk.n++;
      if (code > CODE_LIMIT || code < -CODE_LIMIT) return odd(i, code, value);
      chunk.codes[i] = (code << 1) | 1;
      chunk.nums[i] = chunk.strs.length;
      chunk.strs.push(value);
    },
  };
  return store;

  function odd(i: number, code: number, value: string | number) {
    (chunk.big ??= new Map()).set(i, code);
    if (typeof value === 'number') {
      chunk.codes[i] = BIG;
      chunk.nums[i] = value;
    } else {
      // a string under a code this large: keep it as a string pair through a second map entry
      chunk.codes[i] = BIG | 1;
      chunk.nums[i] = chunk.strs.length;
      chunk.strs.push(value);
    }
  }

  /** a full chunk: the entity being read moves, whole, into a new one (an entity never spans two) */
  function grow() {
    const have = chunk.n - store.start;
    const next = new PairChunk(Math.max(Math.min(chunk.size * 2, MAX_CHUNK), have * 2));
    for (let i = 0; i < have; i++) {
      const from = store.start + i;
      const c = chunk.codes[from];
      next.codes[i] = c;
      if (c & 1) {
        next.nums[i] = next.strs.length;
        next.strs.push(chunk.strs[chunk.nums[from]]);
      } else next.nums[i] = chunk.nums[from];
      if ((c | 1) === (BIG | 1)) (next.big ??= new Map()).set(i, chunk.big!.get(from)!);
    }
    chunk.n = store.start;
    next.n = have;
    next.cache = cache;
    chunk = store.chunk = next;
    store.start = 0;
  }
}

export type PairCache = ReturnType<typeof createPairCache>;

/** The value of the first pair with this code (a loop, not `find`: the flattener asks this many times per entity). */
export function firstOf(pairs: readonly Pair[], code: number): string | number | undefined {
  for (let i = 0; i < pairs.length; i++) if (pairs[i][0] === code) return pairs[i][1];
  return undefined;
}

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
  #pairs: Pair[] | null = null;

  constructor(
    public type: string,
    chunk: PairChunk,
    start: number,
    end: number,
  ) {
    this.#chunk = chunk;
    this.#start = start;
    this.#end = end;
  }

  get pairs(): Pair[] {
    if (this.#pairs) return this.#pairs;
    const c = this.#chunk!;
    const out: Pair[] = new Array(this.#end - this.#start);
    for (let i = this.#start, k = 0; i < this.#end; i++, k++) out[k] = c.cache.get(c.code(i), c.value(i));
    this.#chunk = null;
    return (this.#pairs = out);
  }

  set pairs(v: Pair[]) {
    this.#pairs = v;
    this.#chunk = null;
  }

  /** how many pairs it has, without building `pairs` */
  get pairCount(): number {
    return this.#chunk ? this.#end - this.#start : this.#pairs!.length;
  }

  /** what holds the pairs now (the chunk, or the array once built or set): a FieldIndex re-reads when it changes */
  get source(): object {
    return this.#chunk ?? this.#pairs!;
  }

  /** the pairs into `f` (FieldIndex), from the chunk without building `pairs` */
  readInto(f: FieldIndex) {
    if (this.#chunk) f.fromChunk(this.#chunk, this.#start, this.#end);
    else f.fromPairs(this.#pairs!);
  }

  /** the value of the first pair with this code (pairValue), without building `pairs` */
  first(code: number): string | number | undefined {
    const c = this.#chunk;
    if (!c) return firstOf(this.#pairs!, code);
    for (let i = this.#start; i < this.#end; i++) if (c.code(i) === code) return c.value(i);
    return undefined;
  }

  toJSON() {
    return { ...this, pairs: this.pairs };
  }
}

/** Sequential access to an entity's pairs, whichever way they are held: `count`, then each one's code and value. */
export interface PairReader {
  readonly count: number;
  codeAt(k: number): number;
  valueAt(k: number): string | number;
}

/** A plain `Pair[]` as a PairReader. */
export class ArrayPairs implements PairReader {
  constructor(private readonly pairs: readonly Pair[]) {}
  get count() {
    return this.pairs.length;
  }
  codeAt(k: number): number {
    return this.pairs[k][0];
  }
  valueAt(k: number): string | number {
    return this.pairs[k][1];
  }
}

/** codes a FieldIndex keeps a table for (every DXF group code, xdata included); others are looked up by a scan */
const FIELD_CODES = 1072;

/**
 * One entity's fields read once: `use(e)` walks its pairs a single time and notes where each code first occurs, so
 * `first` and `num` answer without a scan each (the flattener asks 5-15 of them per entity, most of them absent,
 * which cost a full scan apiece). It also reads the pairs in order (PairReader), from the reader's columns without
 * building the entity's `pairs` array. One index per flattening: it holds one entity at a time and re-reads when
 * asked about another (or when the entity's pairs were replaced).
 */
export class FieldIndex implements PairReader {
  private readonly stamp = new Int32Array(FIELD_CODES);
  private readonly at = new Int32Array(FIELD_CODES);
  private gen = 0;
  private e: Entity | null = null;
  private src: object | null = null;
  private chunk: PairChunk | null = null;
  private pairs: readonly Pair[] | null = null;
  private start = 0;
  count = 0;

  /** `e`'s pairs become the ones read (indexed unless they already are) */
  use(e: Entity): this {
    const src = e instanceof DxfEntity ? e.source : e.pairs;
    if (e === this.e && src === this.src) return this;
    this.e = e;
    this.src = src;
    this.gen = (this.gen + 1) | 0;
    if (this.gen === 0) {
      this.stamp.fill(0);
      this.gen = 1;
    }
    if (e instanceof DxfEntity) e.readInto(this);
    else this.fromPairs(e.pairs);
    return this;
  }

  /** called by DxfEntity.readInto */
  fromChunk(c: PairChunk, start: number, end: number) {
    this.chunk = c;
    this.pairs = null;
    this.start = start;
    this.count = end - start;
    const { stamp, at, gen } = this;
    for (let i = start; i < end; i++) {
      const code = c.code(i);
      if (code >= 0 && code < FIELD_CODES && stamp[code] !== gen) {
        stamp[code] = gen;
        at[code] = i - start;
      }
    }
  }

  fromPairs(pairs: readonly Pair[]) {
    this.chunk = null;
    this.pairs = pairs;
    this.start = 0;
    this.count = pairs.length;
    const { stamp, at, gen } = this;
    for (let i = 0; i < pairs.length; i++) {
      const code = pairs[i][0];
      if (code >= 0 && code < FIELD_CODES && stamp[code] !== gen) {
        stamp[code] = gen;
        at[code] = i;
      }
    }
  }

  codeAt(k: number): number {
    return this.chunk ? this.chunk.code(this.start + k) : this.pairs![k][0];
  }

  valueAt(k: number): string | number {
    return this.chunk ? this.chunk.value(this.start + k) : this.pairs![k][1];
  }

  /** the value of `e`'s first pair with this code (as pairValue) */
  first(e: Entity, code: number): string | number | undefined {
    this.use(e);
    if (code >= 0 && code < FIELD_CODES) return this.stamp[code] === this.gen ? this.valueAt(this.at[code]) : undefined;
    for (let k = 0; k < this.count; k++) if (this.codeAt(k) === code) return this.valueAt(k);
    return undefined;
  }

  /** that value as a number, `def` when the code is absent */
  num(e: Entity, code: number, def = 0): number {
    const v = this.first(e, code);
    return v === undefined ? def : Number(v);
  }
}
