import { defineConfig, envInt } from '../../infra/config/config.ts';

/** Limits of the scene worker: a drawing that needs more memory or time fails with the spec's message. */
export const drawingsConfig = defineConfig({
  sceneMaxHeapMb: { env: 'SCENE_MAX_HEAP_MB', schema: envInt(2048, 128, 65536), doc: 'heap cap of the worker thread that parses drawings (MB)' },
  sceneTimeoutMs: { env: 'SCENE_TIMEOUT_MS', schema: envInt(120_000, 1000, 3_600_000), doc: 'longest a drawing may take to parse and compile (ms)' },
  sceneBuildBudgetMs: { env: 'SCENE_BUILD_BUDGET_MS', schema: envInt(30_000, 100, 3_600_000), doc: 'longest the flattening and compiling of one layout may take before it ends as "too complex" (ms); keep it under SCENE_TIMEOUT_MS' },
  sceneFailureRetryMs: { env: 'SCENE_FAILURE_RETRY_MS', schema: envInt(3_600_000, 0, 365 * 86_400_000), doc: 'a drawing whose build timed out or crashed the worker is answered with that error, without a new build, for this long (ms); other failures are remembered until the file or the engine changes' },
  sceneWorkerIdleSeconds: { env: 'SCENE_WORKER_IDLE_SECONDS', schema: envInt(30, 1, 86_400), doc: 'the scene worker thread ends after this long without a drawing, giving its memory back (the next open starts a fresh one)' },
  sceneBatchKb: { env: 'SCENE_BATCH_KB', schema: envInt(2048, 16, 1 << 20), doc: 'a scene is sent in batches of about this many KB: the viewer draws each as it arrives' },
});
