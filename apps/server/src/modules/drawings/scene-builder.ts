import path from 'node:path';
import { createCappedWorker, type FontLookup } from './capped-worker.ts';

export type { FontLookup };

export class SceneBuildError extends Error {
  constructor(readonly kind: 'parse' | 'layout' | 'timeout', message: string, readonly detail?: string) {
    super(message);
  }
}

/** ms per phase of one build: parse, flatten, fonts, compile, encode (the worker's) and worker (the whole job) */
export type SceneTimings = Record<string, number>;

const WORKER = path.join(import.meta.dirname, 'scene.worker.mjs');

/** Scenes are built in one capped worker thread (see capped-worker.ts), one file at a time. */
export function createSceneBuilder(o: { maxHeapMb: number; timeoutMs: number; batchBytes?: number; idleMs?: number }) {
  const worker = createCappedWorker<{ scene: Uint8Array; timings: SceneTimings }>({
    script: WORKER,
    ...o,
    result: (m) => (m.ok ? { scene: m.scene as Uint8Array, timings: m.timings as SceneTimings } : new SceneBuildError(m.layout ? 'layout' : 'parse', String(m.message), m.detail as string | undefined)),
    crashed: (detail) => new SceneBuildError('parse', 'The drawing analysis failed!', detail),
    timedOut: (detail) => new SceneBuildError('timeout', 'The drawing analysis failed!', detail),
  });
  return {
    /**
     * `timings`, when given, receives the worker's ms per phase and `worker`: the whole job, its queueing included.
     * `key` names the bytes (their md5): a build with the key of the build before it reuses the drawing that one read
     * (its `parse` is then absent).
     */
    async build(bytes: Uint8Array, fileName: string, layout: string, fonts: FontLookup, timings?: SceneTimings, key?: string): Promise<Uint8Array> {
      // a copy that the worker takes over (Buffer#slice would be a view: transferring it detaches the caller's bytes)
      const copy = new Uint8Array(bytes);
      const t0 = performance.now();
      const r = await worker.run({ bytes: copy, fileName, layout, batchBytes: o.batchBytes, key }, [copy.buffer], fonts);
      if (timings) Object.assign(timings, r.timings, { worker: performance.now() - t0 });
      return r.scene;
    },
    close: worker.close,
  };
}

export type SceneBuilder = ReturnType<typeof createSceneBuilder>;

const shared = new WeakMap<object, SceneBuilder>();

/** One builder (one worker thread) per app, shared by the routes and the prewarm job. */
export function sharedSceneBuilder(deps: { config: { sceneMaxHeapMb: number; sceneTimeoutMs: number; sceneBatchKb?: number; sceneWorkerIdleSeconds?: number } }): SceneBuilder {
  let b = shared.get(deps);
  if (!b) {
    const idleMs = deps.config.sceneWorkerIdleSeconds && deps.config.sceneWorkerIdleSeconds * 1000;
    b = createSceneBuilder({ maxHeapMb: deps.config.sceneMaxHeapMb, timeoutMs: deps.config.sceneTimeoutMs, batchBytes: deps.config.sceneBatchKb && deps.config.sceneBatchKb * 1024, idleMs });
    shared.set(deps, b);
  }
  return b;
}
