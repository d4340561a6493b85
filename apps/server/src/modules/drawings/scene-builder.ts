import path from 'node:path';
import { createCappedWorker, type FontLookup } from './capped-worker.ts';

export type { FontLookup };

export class SceneBuildError extends Error {
  constructor(readonly kind: 'parse' | 'layout' | 'timeout', message: string, readonly detail?: string) {
    super(message);
  }
}

const WORKER = path.join(import.meta.dirname, 'scene.worker.mjs');

/** Scenes are built in one capped worker thread (see capped-worker.ts), one file at a time. */
export function createSceneBuilder(o: { maxHeapMb: number; timeoutMs: number; batchBytes?: number }) {
  const worker = createCappedWorker<Uint8Array>({
    script: WORKER,
    ...o,
    result: (m) => (m.ok ? (m.scene as Uint8Array) : new SceneBuildError(m.layout ? 'layout' : 'parse', String(m.message), m.detail as string | undefined)),
    crashed: (detail) => new SceneBuildError('parse', 'The drawing analysis failed!', detail),
    timedOut: (detail) => new SceneBuildError('timeout', 'The drawing analysis failed!', detail),
  });
  return {
    build(bytes: Uint8Array, fileName: string, layout: string, fonts: FontLookup): Promise<Uint8Array> {
      // a copy that the worker takes over (Buffer#slice would be a view: transferring it detaches the caller's bytes)
      const copy = new Uint8Array(bytes);
      return worker.run({ bytes: copy, fileName, layout, batchBytes: o.batchBytes }, [copy.buffer], fonts);
    },
    close: worker.close,
  };
}

export type SceneBuilder = ReturnType<typeof createSceneBuilder>;

const shared = new WeakMap<object, SceneBuilder>();

/** One builder (one worker thread) per app, shared by the routes and the prewarm job. */
export function sharedSceneBuilder(deps: { config: { sceneMaxHeapMb: number; sceneTimeoutMs: number; sceneBatchKb?: number } }): SceneBuilder {
  let b = shared.get(deps);
  if (!b) {
    b = createSceneBuilder({ maxHeapMb: deps.config.sceneMaxHeapMb, timeoutMs: deps.config.sceneTimeoutMs, batchBytes: deps.config.sceneBatchKb && deps.config.sceneBatchKb * 1024 });
    shared.set(deps, b);
  }
  return b;
}
