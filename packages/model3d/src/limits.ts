/**
 * The bounds of one conversion (issue 21 part 3: refuse with a clear message instead of running out of memory).
 * WebAssembly readers (occt-import-js, web-ifc) keep their heap outside V8's, so a worker's heap cap does not bound
 * them: their input size is refused before the library is loaded.
 */
export interface Model3dLimits {
  /** any input larger than this is refused (bytes) */
  maxInputBytes: number;
  /** STEP/IGES/BREP/IFC/3DM larger than this are refused before their WebAssembly reader starts (bytes) */
  maxWasmInputBytes: number;
  /** a model with more triangles than this is refused (counted while reading where the format allows) */
  maxTriangles: number;
  /** a model with more vertices than this is refused (counted as meshes are read, as triangles are) */
  maxVertices: number;
  /**
   * a model with more triangles than this also gets a coarse level of detail (a second, small GLB with the same nodes):
   * the viewer shows it first while the full GLB streams in, and while the camera moves
   */
  lodAboveTriangles: number;
  /** about how many triangles the coarse level keeps (meshoptimizer's simplifier stops earlier where it must keep the shape) */
  lodTargetTriangles: number;
}

export const DEFAULT_LIMITS: Model3dLimits = {
  maxInputBytes: 512 * 1024 * 1024,
  // occt-import-js fails above ~100 MB of STEP (its 2 GiB WASM heap, STACK.md)
  maxWasmInputBytes: 100 * 1024 * 1024,
  maxTriangles: 20_000_000,
  maxVertices: 20_000_000,
  lodAboveTriangles: 1_000_000,
  lodTargetTriangles: 250_000,
};

export function withDefaults(limits?: Partial<Model3dLimits>): Model3dLimits {
  return { ...DEFAULT_LIMITS, ...limits };
}
