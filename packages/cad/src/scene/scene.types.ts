/**
 * A compiled scene: one layout of a drawing as GPU-ready buffers. Lines and triangles are each one vertex
 * buffer sorted by layer, so switching layers only changes which ranges are drawn (a few draw calls for a
 * whole drawing). Positions are float32 relative to `origin`, which keeps precision on drawings placed far
 * from 0,0 (survey coordinates). Browser-safe: no Node imports in this folder (type imports are erased).
 */
import type { EntityRef } from '../geometry/flatten.ts';

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

export interface SceneMeta {
  format: 1;
  layout: string;
  layouts: string[];
  units: number;
  bounds: SceneRect;
  origin: [number, number];
  layers: SceneLayer[];
  lineRanges: SceneRange[];
  triRanges: SceneRange[];
  entities: SceneEntity[];
  texts: SceneText[];
  /** entity types not drawn, by count */
  notDrawn: Record<string, number>;
  /** fonts the drawing asks for and what was used */
  fonts?: { requested: string[]; substituted: { name: string; with: string }[] };
}

export interface Scene {
  meta: SceneMeta;
  /** x y per vertex, 2 vertices per segment (gl.LINES) */
  linePositions: Float32Array;
  /** r g b a per vertex */
  lineColors: Uint8Array;
  /** entity index per segment */
  lineEntities: Uint32Array;
  /** lineweight per segment in 1/100 mm (0 = thinnest), for the lineweight display */
  lineWeights: Uint8Array;
  /** x y per vertex, 3 vertices per triangle */
  triPositions: Float32Array;
  triColors: Uint8Array;
  /** entity index per triangle */
  triEntities: Uint32Array;
}
