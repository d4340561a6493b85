import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { FontLookup } from '../drawings/scene-builder.ts';

/** Why a compare could not be built: a side failed to parse (DXF) or convert (DWG), the layout is missing, too slow. */
export class CompareBuildError extends Error {
  constructor(readonly kind: 'parse' | 'convert' | 'layout' | 'timeout', message: string, readonly side?: 'a' | 'b', readonly detail?: string) {
    super(message);
  }
}

export interface CompareBuilt {
  scene: Uint8Array;
  /** `{layout, counts, changes}` as JSON */
  changes: string;
}

export interface CompareInput {
  a: Uint8Array;
  nameA: string;
  b: Uint8Array;
  nameB: string;
  layout: string;
}

interface Job {
  resolve(b: CompareBuilt): void;
  reject(e: Error): void;
  fonts: FontLookup;
  timer: NodeJS.Timeout;
}

const WORKER = path.join(import.meta.dirname, 'compare.worker.mjs');

/**
 * One worker thread compares drawings, one pair at a time (two big drawings need the memory; the cache makes
 * repeats free). Its heap is capped and a compare that overruns is ended by terminating the thread: the next
 * request starts a fresh one, so a bad pair costs one error, never the server.
 */
export function createCompareBuilder(o: { maxHeapMb: number; timeoutMs: number }) {
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
        if (m.ok) job.resolve({ scene: m.scene, changes: m.changes });
        else job.reject(new CompareBuildError(m.kind, m.message, m.side, m.detail));
      }
    });
    const reset = (e: Error) => {
      if (worker === w) {
        worker = null;
        ready = null;
      }
      // out of memory or a crash while parsing: the drawing could not be parsed
      fail(new CompareBuildError('parse', 'The drawing analysis failed!', undefined, e.message));
    };
    w.on('error', reset);
    w.on('exit', (code) => reset(new Error(`compare worker exited (${code})`)));
    return ready;
  }

  async function buildOne(input: CompareInput, fonts: FontLookup): Promise<CompareBuilt> {
    const w = await start();
    const jobId = nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        jobs.delete(jobId);
        reject(new CompareBuildError('timeout', 'The drawing analysis failed!', undefined, `over ${o.timeoutMs} ms`));
        void w.terminate();
      }, o.timeoutMs);
      jobs.set(jobId, { resolve, reject, fonts, timer });
      const a = input.a.slice(), b = input.b.slice();
      w.postMessage({ type: 'build', jobId, a, b, nameA: input.nameA, nameB: input.nameB, layout: input.layout, timeoutMs: o.timeoutMs }, [a.buffer, b.buffer]);
    });
  }

  return {
    /** Compares are queued: one at a time through the worker. */
    build(input: CompareInput, fonts: FontLookup): Promise<CompareBuilt> {
      const run = chain.then(() => buildOne(input, fonts));
      chain = run.catch(() => undefined);
      return run;
    },
    async close() {
      fail(new CompareBuildError('parse', 'The drawing analysis failed!', undefined, 'closing'));
      const w = worker;
      worker = null;
      ready = null;
      await w?.terminate();
    },
  };
}

export type CompareBuilder = ReturnType<typeof createCompareBuilder>;
