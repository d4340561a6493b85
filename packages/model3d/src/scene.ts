import { overLimit } from './errors.ts';
import type { Model3dLimits } from './limits.ts';

/** Properties shown for a node in the viewer: IFC property sets, STEP product names, layer and colour … */
export type NodeProperties = Record<string, unknown>;

/** One triangle mesh as an importer gives it (positions in the node's space). */
export interface SceneMesh {
  name?: string;
  positions: Float32Array;
  normals?: Float32Array;
  /** triangles; absent: every three positions are one triangle */
  indices?: Uint32Array;
  /** linear RGB 0–1, and an opacity 0–1 */
  color?: [number, number, number] | [number, number, number, number];
  /** line segments (pairs of indices) instead of triangles: a solid's faces on surfaces not meshed, drawn as their edges */
  mode?: 'lines';
  /** a linear RGB colour per position (scans: PLY, coloured STL), multiplied with `color` */
  colors?: Float32Array;
  /** texture coordinates per position (glTF's: v down from the image's top) */
  uvs?: Float32Array;
  /** the base colour image (PNG or JPEG, embedded in the GLB), multiplied with `color`; needs `uvs` */
  texture?: SceneTexture;
}

export interface SceneTexture {
  /** the image file's name, as the model names it */
  name: string;
  image: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
}

/** A node of the neutral scene every importer returns. */
export interface SceneNode {
  name: string;
  /** column-major 4×4 (glTF's order); absent: identity */
  matrix?: number[];
  meshes: SceneMesh[];
  children: SceneNode[];
  properties?: NodeProperties;
}

export interface Scene {
  roots: SceneNode[];
  /**
   * the model's up axis as its format has it: 'Z' for CAD (STEP, IGES, STL, 3DM …), 'Y' for glTF, IFC through
   * web-ifc, OBJ. Coordinates are kept as in the file (distances measure true); the viewer turns a Z-up model.
   */
  upAxis: 'Y' | 'Z';
}

export const node = (name: string, o: Partial<SceneNode> = {}): SceneNode => ({ name, meshes: [], children: [], ...o });

export const triangleCount = (m: SceneMesh) => m.mode === 'lines' ? 0 : Math.floor((m.indices ? m.indices.length : m.positions.length / 3) / 3);

/**
 * Counts triangles and vertices while an importer reads, refusing the model as soon as it passes a limit: a model
 * far over it stops at its first meshes past the limit, before the rest is read or anything is written.
 */
export class TriangleBudget {
  count = 0;
  vertices = 0;
  constructor(private readonly limits: Model3dLimits) {}
  add(triangles: number, vertices = 0) {
    this.count += triangles;
    this.vertices += vertices;
    checkCounts(this.limits, this.count, this.vertices);
  }
  mesh(m: SceneMesh): SceneMesh {
    this.add(triangleCount(m), m.positions.length / 3);
    return m;
  }
}

/** throws the over-limit error when the counts pass the limits (triangles first: the number users know) */
export function checkCounts(limits: Model3dLimits, triangles: number, vertices: number) {
  if (triangles > limits.maxTriangles) throw overLimit('triangles', triangles, limits.maxTriangles);
  if (vertices > limits.maxVertices) throw overLimit('vertices', vertices, limits.maxVertices);
}
