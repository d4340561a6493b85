import { CadError, type Drawing, type Entity } from '../model/drawing.ts';
import { DxfEntity } from '../dxf/pair-store.ts';

/**
 * Bounds on the work and output of one flattening, set by the drawing's content rather than its file size: a few
 * hundred bytes of nested arrays ask for billions of entities, a spline's degree for degree² work per point, a hatch
 * pattern 1e-6 apart for millions of lines. Past a bound the engine draws a simplification (a solid line instead of
 * dashes, an outline instead of a pattern, a control polygon instead of a spline, the INSERT not expanded) and counts
 * it in the "not drawn" report (`Flattened.skipped`, keys `TYPE:limit` or `TYPE:simplified`); past the deadline the
 * build ends with `cad.tooComplex`, so a hostile drawing costs seconds, never the worker's whole timeout.
 */

/** expanded entities (block children included) any drawing may reach: the old fixed bound */
export const MAX_EXPANDED_ENTITIES = 2_000_000;
/** expanded entities every drawing may reach, however few it stores */
export const MIN_EXPANDED_ENTITIES = 300_000;
/** how many times its stored entities a drawing may expand to through its blocks (between the two bounds above) */
export const EXPANSION_FACTOR = 50;
/**
 * output vertices (polyline points, pattern segment ends), exact curves and text characters one flattening may make:
 * the largest drawings of the corpus stay well under it, and ~21 bytes per segment keeps such a scene near 100 MB
 */
export const MAX_PRIMITIVES = 6_000_000;
/**
 * group codes read while expanding (each INSERT cell reads its block's entities again): bounds the reading work of
 * a heavy block in a large array, which the entity count does not see (a 100 × 100 array of a 100 000-vertex
 * polyline is 10 000 entities but 10^9 codes)
 */
export const MAX_EXPANDED_PAIRS = 60_000_000;
export const MIN_EXPANDED_PAIRS = 5_000_000;

/** output primitives every drawing may make, however little it stores (a scene of ~20 MB at most) */
export const MIN_PRIMITIVES = 1_000_000;
/** how many output primitives a drawing may make per group code it stores (between the two bounds above) */
export const PRIMITIVES_PER_PAIR = 20;
/** the highest spline degree drawn as a curve: files use 1 to 11, a higher one is drawn as its control polygon */
export const MAX_SPLINE_DEGREE = 15;
/** the most points one spline is tessellated into (the refinement depth shrinks to fit) */
export const MAX_SPLINE_POINTS = 65_536;
/** hatch line crossings with the boundary (edges × lines) a pattern may need before its outline is drawn instead */
export const MAX_HATCH_CROSSINGS = 4_000_000;
/** boundary points framed plus crossings found by all pattern hatches of one flattening */
export const MAX_HATCH_WORK = 40_000_000;
/** segments the scene compiler may bake from curves a float32 record cannot hold, per drawing (~5 MB of scene): past it, 16 per curve */
export const MAX_BAKED_CURVE_SEGMENTS = 250_000;

/** The expansion bound of a drawing storing `stored` entities (model, paper and block entities). */
export function expansionBound(stored: number): number {
  return Math.min(MAX_EXPANDED_ENTITIES, Math.max(MIN_EXPANDED_ENTITIES, EXPANSION_FACTOR * stored));
}

/** The reading bound of a drawing storing `pairs` group codes in its entities. */
export function expandedPairsBound(pairs: number): number {
  return Math.min(MAX_EXPANDED_PAIRS, Math.max(MIN_EXPANDED_PAIRS, EXPANSION_FACTOR * pairs));
}

/** The output bound of a drawing storing `pairs` group codes in its entities. */
export function primitivesBound(pairs: number): number {
  return Math.min(MAX_PRIMITIVES, Math.max(MIN_PRIMITIVES, PRIMITIVES_PER_PAIR * pairs));
}

const stored = new WeakMap<Drawing, { entities: number; pairs: number }>();

/** What a drawing stores: entities (model and paper space, blocks, their vertices and attributes) and their group codes. */
export function storedContent(d: Drawing): { entities: number; pairs: number } {
  let r = stored.get(d);
  if (r) return r;
  r = { entities: 0, pairs: 0 };
  const count = (list: readonly Entity[]) => {
    for (const e of list) {
      r!.entities++;
      // counted from the reader's columns: asking for `pairs` built every entity's pair array (most of a first
      // flattening's garbage)
      r!.pairs += e instanceof DxfEntity ? e.pairCount : (e.pairs?.length ?? 0);
      if (e.children) count(e.children);
    }
  };
  count(d.entities);
  for (const b of d.blocks) count(b.entities);
  stored.set(d, r);
  return r;
}

/** The error a build ends with when the drawing asks for more work than its budget. */
export function tooComplex(detail: string): CadError {
  return new CadError('cad.tooComplex', 'The drawing is too complex to display.', detail);
}

/**
 * A deadline on `performance.now()`; `check` throws `cad.tooComplex` once it has passed. `tick` checks after every
 * 32 768 units of work (a unit: a step of a loop, or a group code read), so hot loops pay little and a heavy step is
 * never far from a check.
 */
export class Deadline {
  private n = 0;
  constructor(readonly at: number, readonly what = 'build') {}
  static within(ms: number | undefined, what?: string): Deadline | undefined {
    return ms === undefined || !(ms > 0) ? undefined : new Deadline(performance.now() + ms, what);
  }
  check(phase: string): void {
    if (performance.now() > this.at) throw tooComplex(`${this.what} over its time budget (${phase})`);
  }
  tick(phase: string, work = 1): void {
    this.n += work;
    if (this.n >= 32_768) {
      this.n = 0;
      this.check(phase);
    }
  }
}
