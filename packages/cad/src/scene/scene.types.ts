/**
 * A compiled scene: one layout of a drawing as GPU-ready buffers. Lines and triangles are each one buffer sorted
 * by layer, so switching layers only changes which ranges are drawn (a few draw calls for a whole drawing).
 * Positions are float32 relative to `origin`, which keeps precision on drawings placed far from 0,0 (survey
 * coordinates). Everything but positions is stored per segment / triangle / glyph instance, never per vertex: the
 * viewer reads a primitive's colour from a texture by its vertex number. Text
 * glyphs used often are one mesh each (in the glyph's own frame) plus one small instance per character. Continuous
 * circles, arcs, elliptical arcs and bulge arcs are exact parametric records, tessellated by the viewer for its zoom.
 * Browser-safe: no Node imports in this folder (type imports are erased).
 */
import type { EntityRef } from '../geometry/flatten.ts';
import type { SceneImage } from './images.ts';

export type { SceneImage };

export interface SceneRect {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface SceneLayer {
  name: string;
  /** 0xRRGGBB */
  color: number;
  on: boolean;
  frozen: boolean;
  locked: boolean;
}

/** What a click selects and the properties panel shows: the top-level entity, as the flattener saw it. */
export type SceneEntity = EntityRef;

export interface SceneText {
  text: string;
  x: number;
  y: number;
  height: number;
  rotation: number;
  entity: number;
}

/** [layer index, first vertex, vertex count] */
export type SceneRange = [number, number, number];

/**
 * One glyph mesh drawn by instances: its segments and triangles in `glyphLinePositions` / `glyphTriPositions`
 * (vertex ranges, glyph frame: cap height 1, origin on the baseline) and its characters in the glyph-instance
 * arrays. [first line vertex, line vertex count, first triangle vertex, triangle vertex count, first instance, instance count]
 */
export type SceneGlyph = [number, number, number, number, number, number];

/**
 * One block mesh drawn by instances (a block variant inserted often, see scene/blocks.ts): its segments and triangles
 * in `blockLinePositions` / `blockTriPositions` (vertex ranges, mesh frame) and its INSERTs in the block-instance
 * arrays. [first line vertex, line vertex count, first triangle vertex, triangle vertex count, first instance, instance count]
 */
export type SceneBlock = [number, number, number, number, number, number];

/** Block instancing (scene format 4): every array empty when no block is instanced. */
export interface SceneBlockArrays {
  /** block meshes in their own frame: x y per vertex, 2 per segment; ranges in `meta.blocks` */
  blockLinePositions: Float32Array;
  /** r g b a per mesh segment (resolved: ByBlock, ByLayer, layer-0 stand-ins; a always 255: the tier is the instance's) */
  blockLineColors: Uint8Array;
  /** layer index per mesh segment: a segment is hidden with its own layer, as baked geometry is */
  blockLineLayers: Uint32Array;
  /** lineweight per mesh segment in 1/100 mm */
  blockLineWeights: Uint8Array;
  /** x y per vertex, 3 per triangle */
  blockTriPositions: Float32Array;
  blockTriColors: Uint8Array;
  blockTriLayers: Uint32Array;
  /**
   * 8 floats per INSERT (each MINSERT cell), grouped by mesh: a b c d e f of x' = a mx + c my + e, y' = b mx + d my + f
   * (e f relative to the origin; rotation, mirror and the scale the mesh does not hold), the INSERT's layer index, its
   * depth tier (scene/tiers.ts; 0 in drawings without wipeouts)
   */
  blockInstances: Float32Array;
  /** the INSERT's entity index per instance (what a click inside the block selects) */
  blockInstanceEntities: Uint32Array;
}

/**
 * A bucket of curve records (scene/curves.ts) drawn with one segment count per frame: [size class ⌈log2 radius⌉,
 * sweep class, first record, record count, largest radius (drawing units), largest sweep (radians)].
 */
export type SceneCurveBucket = [number, number, number, number, number, number];

export interface SceneMeta {
  format: 1;
  layout: string;
  layouts: string[];
  units: number;
  /** $LUNITS and $LUPREC: how the drawing writes lengths (1 scientific … 5 fractional), absent when the header has no $LUNITS */
  linearUnits?: { format: number; precision: number };
  bounds: SceneRect;
  /** what "zoom extents" and the first view show: the content without far-away stray items (geometry/extents.ts), as thumbnails frame it */
  home?: SceneRect;
  origin: [number, number];
  layers: SceneLayer[];
  lineRanges: SceneRange[];
  triRanges: SceneRange[];
  /** instanced glyph meshes (absent or empty: all text is in the line and triangle buffers) */
  glyphs?: SceneGlyph[];
  /** instanced block meshes (absent or empty: every INSERT is in the line and triangle buffers) */
  blocks?: SceneBlock[];
  /** curve buckets, in record order (absent or empty: no curves, every curve is in the line buffer) */
  curveBuckets?: SceneCurveBucket[];
  entities: SceneEntity[];
  texts: SceneText[];
  /** entity types not drawn, by count */
  notDrawn: Record<string, number>;
  /** entities left out because their layer is off or frozen in the file (not in the scene at all) */
  layerOmitted?: number;
  /** fonts the drawing asks for and what was used */
  fonts?: { requested: string[]; substituted: { name: string; with: string }[] };
  /** pictures (IMAGE) and wipeouts in draw order (absent when there are none): the viewer fetches the picture files */
  images?: SceneImage[];
}

export interface Scene extends SceneBlockArrays {
  meta: SceneMeta;
  /** x y per vertex, 2 vertices per segment (x0 y0 x1 y1 per segment) */
  linePositions: Float32Array;
  /** r g b a per segment; a is 255 - the segment's depth tier (scene/tiers.ts: 255 in drawings without wipeouts) */
  lineSegmentColors: Uint8Array;
  /** [first segment, entity] runs: the segments from `first` up to the next run's first belong to `entity` */
  lineEntityRuns: Uint32Array;
  /** lineweight per segment in 1/100 mm (0 = thinnest), for the lineweight display */
  lineWeights: Uint8Array;
  /** x y per vertex, 3 vertices per triangle */
  triPositions: Float32Array;
  /** r g b a per triangle, a as in lineSegmentColors */
  triangleColors: Uint8Array;
  /** [first triangle, entity] runs */
  triEntityRuns: Uint32Array;
  /** glyph meshes in the glyph frame: segments (x0 y0 x1 y1) and triangles (x y × 3), ranges in `meta.glyphs` */
  glyphLinePositions: Float32Array;
  glyphTriPositions: Float32Array;
  /**
   * 8 floats per glyph instance, grouped by glyph: a b c d e f of x' = a gx + c gy + e, y' = b gx + d gy + f (e f
   * relative to the origin), the layer index + depth tier × GLYPH_TIER_UNIT (scene/tiers.ts; the layer index alone in
   * drawings without wipeouts), the colour 0xRRGGBB (exact in a float). Two RGBA32F texels each,
   * which the viewer's shader reads by vertex number (no per-instance draw overhead on software renderers).
   */
  glyphInstances: Float32Array;
  /** entity index per glyph instance */
  glyphInstanceEntities: Uint32Array;
  /**
   * Continuous circles, arcs, elliptical arcs and bulge arcs, exact: 12 floats per record (cx cy ux uy, vx vy t0
   * sweep, layer colour weight tier (scene/tiers.ts, 0 in drawings without wipeouts); the point at t is c + u cos t + v sin t, relative to the origin), bucketed as
   * `meta.curveBuckets` says. The viewer tessellates them every frame for its zoom (scene/curves.ts).
   */
  curves: Float32Array;
  /** entity index per curve record */
  curveEntities: Uint32Array;
  /**
   * Per-vertex forms of the format before instancing, built on first use from the arrays above (tests and tools;
   * the viewer never reads them, they cost memory): r g b a per line vertex, entity per segment, r g b a per
   * triangle vertex, entity per triangle. Instanced glyphs are not in them, nor are curve records: a tool that reads
   * segments tessellates those with `tessellateSceneCurves(scene, tolerance)` (scene/curves.ts). Instanced blocks
   * are: their segments and triangles follow the baked ones (indices past `linePositions` / `triPositions`;
   * `expandBlockInstances` gives their positions, in the same order).
   */
  readonly lineColors: Uint8Array;
  readonly lineEntities: Uint32Array;
  readonly triColors: Uint8Array;
  readonly triEntities: Uint32Array;
}
