/** Browser-safe part of the engine: the scene format, its decoder and picking. The web viewer imports this. */
export * from './scene.types.ts';
export { encodeScene, decodeScene, SceneReader, loadedPrimitives, SCENE_FORMAT, type SceneEvent, type SceneArrayKey } from './binary.ts';
export { pickEntity, entityBounds } from './pick.ts';
export { runValueAt, forRunsOf } from './runs.ts';
