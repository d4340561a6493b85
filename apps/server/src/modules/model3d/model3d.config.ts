import { defineConfig, envCountOrUnlimited, envInt } from '../../infra/config/config.ts';

/**
 * 3D conversion needs the super membership (spec section 1); everyone else gets FREE_3D_TRIALS conversions over the
 * life of the account ('unlimited' makes 3D conversion free for everyone, 0 keeps it for super members only). The
 * caps bound one conversion: bigger inputs or models are refused with a clear message instead of running out of memory.
 */
export const model3dConfig = defineConfig({
  free3dTrials: {
    env: 'FREE_3D_TRIALS',
    schema: envCountOrUnlimited(3),
    doc: "3D conversions an account without super membership may make in all (failed ones do not count); 'unlimited' makes 3D conversion free, 0 super members only",
  },
  model3dMaxInputMb: { env: 'MODEL3D_MAX_INPUT_MB', schema: envInt(200, 1, 4096), doc: 'largest 3D file converted (MB); STEP/IGES/IFC/3DM above 100 MB are refused by the reader itself' },
  model3dMaxTriangles: { env: 'MODEL3D_MAX_TRIANGLES', schema: envInt(10_000_000, 1, 200_000_000), doc: 'a 3D model with more triangles than this is refused (counted while its meshes are read), with both numbers in the message' },
  model3dMaxVertices: { env: 'MODEL3D_MAX_VERTICES', schema: envInt(10_000_000, 1, 200_000_000), doc: 'a 3D model with more vertices than this is refused (counted while its meshes are read), with both numbers in the message' },
  model3dLodAboveTriangles: { env: 'MODEL3D_LOD_ABOVE_TRIANGLES', schema: envInt(1_000_000, 1, 200_000_000), doc: 'a 3D model with more triangles than this also gets a coarse level of detail, shown first while the full model loads and while the camera moves' },
  model3dLodTargetTriangles: { env: 'MODEL3D_LOD_TARGET_TRIANGLES', schema: envInt(250_000, 100, 10_000_000), doc: 'about how many triangles the coarse level keeps' },
  model3dMaxHeapMb: { env: 'MODEL3D_MAX_HEAP_MB', schema: envInt(1536, 128, 65536), doc: 'heap cap of the worker thread converting one 3D model (MB)' },
  revitMaxReadMb: { env: 'REVIT_MAX_READ_MB', schema: envInt(100, 1, 4096), doc: "a Revit .rvt larger than this shows no metadata (its streams are found by reading the whole file)" },
  model3dTimeoutMs: { env: 'MODEL3D_TIMEOUT_MS', schema: envInt(600_000, 1000, 3_600_000), doc: 'longest one 3D conversion may take before it fails (ms)' },
});
