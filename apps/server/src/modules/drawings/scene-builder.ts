import path from 'node:path';
import { workerMemory, type WorkerMemory } from '../../infra/workers/worker-budget.ts';
import { workerEntry } from '../../infra/workers/worker-entry.ts';
import { createCappedWorker, type FontLookup } from './capped-worker.ts';
import { createFairQueue, type QueueTicket } from './fair-queue.ts';

export type { FontLookup };

/**
 * How a build failed: `parse` (the file cannot be read), `layout` (no such layout), `tooComplex` (the drawing's content
 * passed the engine's bounds or its time budget), `timeout` (the worker's hard limit) or `crash` (the worker died:
 * out of memory, a broken install).
 */
export class SceneBuildError extends Error {
  constructor(readonly kind: 'parse' | 'layout' | 'timeout' | 'tooComplex' | 'crash', message: string, readonly detail?: string) {
    super(message);
  }
}

/** builds one user may have waiting for the worker (more are refused with drawing.busy) */
export const MAX_QUEUED_BUILDS_PER_USER = 4;

/** ms per phase of one build: parse, flatten, fonts, compile, encode (the worker's) and worker (the whole job) */
export type SceneTimings = Record<string, number>;

const WORKER = workerEntry(path.join(import.meta.dirname, 'scene.worker.mjs'), 'scene.worker');

/**
 * Scenes are built in two capped worker threads (see capped-worker.ts), one file at a time each. Background builds
 * (the prewarm) take one of them at most: the other is kept for opens, so an open never waits for a background build
 * (issue 16 item 14: an open right after an upload waited for the prewarm build running then, 9.95 s vs 1.68 s cold).
 * Each build reserves its worker limit from the memory budget, the open's slot too, so the budget still bounds them.
 */
export function createSceneBuilder(o: { maxHeapMb: number; timeoutMs: number; batchBytes?: number; memory?: WorkerMemory; budgetMs?: number; maxQueuedPerUser?: number; idleMs?: number }) {
  const workers = [0, 1].map(() =>
    createCappedWorker<{ scene: Uint8Array; timings: SceneTimings }>({
      script: WORKER,
      ...o,
      result: (m) => (m.ok ? { scene: m.scene as Uint8Array, timings: m.timings as SceneTimings } : new SceneBuildError(m.layout ? 'layout' : m.code === 'cad.tooComplex' ? 'tooComplex' : 'parse', String(m.message), m.detail as string | undefined)),
      crashed: (detail) => new SceneBuildError('crash', 'The drawing analysis failed!', detail),
      timedOut: (detail) => new SceneBuildError('timeout', 'The drawing analysis failed!', detail),
    }),
  );
  const busy = new Set<number>();
  /** a free worker, one whose thread is up first (no start-up; it may also hold the drawing the build needs) */
  function freeWorker(): number {
    const free = [0, 1].filter((i) => !busy.has(i));
    return free.find((i) => workers[i]!.alive) ?? free[0]!;
  }
  // the next build is chosen user by user, opens first (fair-queue.ts); background builds take one worker at most
  const queue = createFairQueue({ concurrency: workers.length, backgroundSlots: 1, maxQueuedPerUser: o.maxQueuedPerUser ?? MAX_QUEUED_BUILDS_PER_USER });
  return {
    /**
     * `timings`, when given, receives the worker's ms per phase and `worker`: the whole job, its queueing included.
     * `key` names the bytes (their md5): a build with the key of the build before it reuses the drawing that one read
     * (its `parse` is then absent). `owner`: the user the build is for, whose turn it waits for (fair-queue.ts);
     * `ticket`: whether someone waits for it or it is background work (the prewarm), which yields to opens.
     */
    async build(bytes: Uint8Array, fileName: string, layout: string, fonts: FontLookup, timings?: SceneTimings, key?: string, owner = '', ticket?: QueueTicket): Promise<Uint8Array> {
      const t0 = performance.now();
      // a background build is stopped when an open waits for the worker, and run again from the start later (fair-queue.ts)
      const r = await queue.run(owner, async (signal) => {
        const i = freeWorker();
        busy.add(i);
        // while background work holds one thread, the other is kept started for the next open
        if (ticket?.background) workers[1 - i]!.warm();
        try {
          // a copy that the worker takes over (Buffer#slice would be a view: transferring it detaches the caller's bytes)
          const copy = new Uint8Array(bytes);
          return await workers[i]!.run({ bytes: copy, fileName, layout, batchBytes: o.batchBytes, budgetMs: o.budgetMs, key }, [copy.buffer], fonts, undefined, undefined, signal);
        } finally {
          busy.delete(i);
        }
      }, ticket);
      if (timings) Object.assign(timings, r.timings, { worker: performance.now() - t0 });
      return r.scene;
    },
    async close() {
      await Promise.all(workers.map((w) => w.close()));
    },
    /** builds waiting for their turn (for `owner`, or all) */
    waiting: queue.waiting,
    /** a waiting build's ticket changed: an open joined a background build */
    promote: queue.promote,
    /** resolves when no open is waiting or being built (or after `maxMs`): when other background work may start */
    quiet: queue.quiet,
    /** background work of another kind (thumbnails): starts when no open waits, stopped and run again when one comes */
    yielding: queue.yielding,
  };
}

export type SceneBuilder = ReturnType<typeof createSceneBuilder>;

const shared = new WeakMap<object, SceneBuilder>();

/** One builder (its two worker threads) per app, shared by the routes and the prewarm job. */
export function sharedSceneBuilder(deps: { config: { sceneMaxHeapMb: number; sceneTimeoutMs: number; sceneBatchKb?: number; sceneBuildBudgetMs?: number; sceneWorkerIdleSeconds?: number; workerMemoryBudgetMb: number; workerMemoryLimitMb: number } }): SceneBuilder {
  let b = shared.get(deps);
  if (!b) {
    const idleMs = deps.config.sceneWorkerIdleSeconds && deps.config.sceneWorkerIdleSeconds * 1000;
    b = createSceneBuilder({ maxHeapMb: deps.config.sceneMaxHeapMb, timeoutMs: deps.config.sceneTimeoutMs, batchBytes: deps.config.sceneBatchKb && deps.config.sceneBatchKb * 1024, budgetMs: deps.config.sceneBuildBudgetMs, memory: workerMemory(deps.config), idleMs });
    shared.set(deps, b);
  }
  return b;
}
