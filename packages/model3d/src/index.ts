export { convertToGlb, formatOf, MODEL3D_FORMATS, DRAWING_3D_FORMATS, type ConvertOptions, type ConvertResult, type Model3dFormat } from './convert.ts';
export { Model3dError, type Model3dErrorKind, type Model3dOverLimit } from './errors.ts';
export { gltfIO, type ModelNode, type ModelStats } from './glb/finish.ts';
export { DEFAULT_LIMITS, type Model3dLimits } from './limits.ts';
export type { Scene, SceneMesh, SceneNode } from './scene.ts';
export { convertInWorker, DEFAULT_WORKER_LIMITS, type WorkerLimits } from './worker/run-in-worker.ts';
export { type Model3dProgress, type Model3dStage, type OnModel3dProgress } from './progress.ts';
export { companionNamesOf } from './companions.ts';
export { NotRevit, readRevitInfo, readRevitPreview, type RevitInfo } from './revit.ts';
