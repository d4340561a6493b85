// The ACIS path as other packages see it (the package's `./acis` export, read by model3d): the readers, the wireframe
// and the tessellation of solids. The engine's own flattening imports index.ts, which leaves the tessellation (and
// earcut with it) out of what `cad info` loads (scripts/build.test.ts).
export * from './index.ts';
export { tessellateAcis, AcisTessellationLimit, TOLERANCE_OF_SIZE, type AcisMesh, type TessellateOptions } from './tessellate.ts';
