/** Browser-safe part of the engine: the scene format, its decoder and picking. The web viewer imports this. */
export * from './scene.types.ts';
export { encodeScene, decodeScene, SceneReader, loadedPrimitives, SCENE_FORMAT, type SceneEvent, type SceneArrayKey } from './binary.ts';
export { pickEntity, entityBounds, snapPoint } from './pick.ts';
export { runValueAt, forRunsOf } from './runs.ts';
export { expandBlockInstances, nearestBlockVertex, type ExpandedBlocks } from './block-query.ts';
export { adjustLinear } from './images.ts';
export { GLYPH_TIER_UNIT, MAX_TIER } from './tiers.ts';
export { CURVE_FLOATS, CURVE_GRID, CURVE_TOLERANCE_PX, curveTile, bucketSegments, sceneCurve, curveCount, nearestCurve, nearestCurveSnap, tessellateSceneCurves } from './curves.ts';
export { curveSegments, chordError, curveRadius, curvePoint, type CurveGeom } from '../geometry/curve.ts';
