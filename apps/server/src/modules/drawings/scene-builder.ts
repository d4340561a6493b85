import { Worker } from 'node:worker_threads';
import path from 'node:path';

export type FontLookup = (fileName: string) => Promise<Uint8Array | null>;

export class SceneBuildError extends Error {
  constructor(readonly kind: 'parse' | 'layout' | 'timeout', message: string, readonly detail?: string) {
    super(message);
  }
}

interface Job {
  resolve(b: Uint8Array): void;
  reject(e: Error): void;
  fonts: FontLookup;
  timer: NodeJS.Timeout;
}

const WORKER = path.join(import.meta.dirname, 'scene.worker.mjs');

/**
 * One worker thread builds scenes, one file at a time (a big drawing needs the memory; the cache makes
 * repeats free). Its heap is capped and a build that overruns is ended by terminating the thread: the
 * next request starts a fresh one, so a bad or huge file costs one error, never the server.
 */
export function createSceneBuilder(o: { maxHeapMb: number; timeoutMs: number }) {
  let worker: Worker | null = null;
  let ready: Promise<Worker> | null = null;
  const jobs = new Map<number, Job>();
  let nextId = 1;
  let chain: Promise<unknown> = Promise.resolve();

  function fail(all: Error) {
    for (const [id, j] of jobs) {
      clearTimeout(j.timer);
      j.reject(all);
      jobs.delete(id);
    }
  }

  function start(): Promise<Worker> {
    if (ready) return ready;
    const w = new Worker(WORKER, { resourceLimits: { maxOldGenerationSizeMb: o.maxHeapMb } });
    // an idle builder must not keep a finished process (tests, the CLI) alive
    w.unref();
    worker = w;
    ready = new Promise((resolve, reject) => {
      w.once('error', reject);
      w.on('message', function first(m) {
        if (m?.type === 'ready') {
          w.off('message', first);
          resolve(w);
        }
      });
    });
    ready.catch(() => undefined);
    w.on('message', async (m) => {
      if (m?.type === 'font') {
        const job = jobs.get(m.jobId);
        const bytes = job ? await job.fonts(m.fileName).catch(() => null) : null;
        w.postMessage({ type: 'font', id: m.id, bytes });
      } else if (m?.type === 'done') {
        const job = jobs.get(m.jobId);
        if (!job) return;
        jobs.delete(m.jobId);
        clearTimeout(job.timer);
        if (m.ok) job.resolve(m.scene);
        else job.reject(new SceneBuildError(m.layout ? 'layout' : 'parse', m.message, m.detail));
      }
    });
    const reset = (e: Error) => {
      if (worker === w) {
        worker = null;
        ready = null;
      }
      fail(new SceneBuildError('parse', 'The drawing analysis failed!', e.message));
    };
    w.on('error', reset);
    w.on('exit', (code) => reset(new Error(`scene worker exited (${code})`)));
    return ready;
  }

  async function buildOne(bytes: Uint8Array, fileName: string, layout: string, fonts: FontLookup): Promise<Uint8Array> {
    const w = await start();
    const jobId = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        jobs.delete(jobId);
        reject(new SceneBuildError('timeout', 'The drawing analysis failed!', `over ${o.timeoutMs} ms`));
        void w.terminate();
      }, o.timeoutMs);
      jobs.set(jobId, { resolve, reject, fonts, timer });
      const copy = bytes.slice();
      w.postMessage({ type: 'build', jobId, bytes: copy, fileName, layout, timeoutMs: o.timeoutMs }, [copy.buffer]);
    });
  }

  return {
    /** Builds are queued: one at a time through the worker. */
    build(bytes: Uint8Array, fileName: string, layout: string, fonts: FontLookup): Promise<Uint8Array> {
      const run = chain.then(() => buildOne(bytes, fileName, layout, fonts));
      chain = run.catch(() => undefined);
      return run;
    },
    async close() {
      fail(new SceneBuildError('parse', 'The drawing analysis failed!', 'closing'));
      const w = worker;
      worker = null;
      ready = null;
      await w?.terminate();
    },
  };
}

export type SceneBuilder = ReturnType<typeof createSceneBuilder>;

const shared = new WeakMap<object, SceneBuilder>();

/** One builder (one worker thread) per app, shared by the routes and the prewarm job. */
export function sharedSceneBuilder(deps: { config: { sceneMaxHeapMb: number; sceneTimeoutMs: number } }): SceneBuilder {
  let b = shared.get(deps);
  if (!b) {
    b = createSceneBuilder({ maxHeapMb: deps.config.sceneMaxHeapMb, timeoutMs: deps.config.sceneTimeoutMs });
    shared.set(deps, b);
  }
  return b;
}
