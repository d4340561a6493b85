import { defineConfig, envInt } from '../../infra/config/config.ts';

/** Limits of the scene worker: a drawing that needs more memory or time fails with the spec's message. */
export const drawingsConfig = defineConfig({
  sceneMaxHeapMb: { env: 'SCENE_MAX_HEAP_MB', schema: envInt(2048, 128, 65536), doc: 'heap cap of the worker thread that parses drawings (MB)' },
  sceneTimeoutMs: { env: 'SCENE_TIMEOUT_MS', schema: envInt(120_000, 1000, 3_600_000), doc: 'longest a drawing may take to parse and compile (ms)' },
  sceneWorkerIdleSeconds: { env: 'SCENE_WORKER_IDLE_SECONDS', schema: envInt(30, 1, 86_400), doc: 'the scene worker thread ends after this long without a drawing, giving its memory back (the next open starts a fresh one)' },
  sceneBatchKb: { env: 'SCENE_BATCH_KB', schema: envInt(2048, 16, 1 << 20), doc: 'a scene is sent in batches of about this many KB: the viewer draws each as it arrives' },
});
