import { Worker } from 'node:worker_threads';
import { threadHeapMb, type WorkerMemory } from '../../infra/workers/worker-budget.ts';
import type { WorkerEntry } from '../../infra/workers/worker-entry.ts';

export type FontLookup = (fileName: string) => Promise<Uint8Array | null>;
/** The bytes of the picture an IMAGE names (its base name, and the path as the drawing wrote it), or null (render/pictures.ts PictureLookup). */
export type PictureFileLookup = (name: string, file: string) => Promise<Uint8Array | null>;
/** `{type:'progress', jobId, percent, stage}` from the worker, for a job that reports how far it is (conversions) */
export type ProgressListener = (percent: number, stage: string) => void;

/** A finished job as the worker reports it: `{type:'done', jobId, ok, …}`. */
export interface DoneMessage {
  type: 'done';
  jobId: number;
  ok: boolean;
  [k: string]: unknown;
}

export interface CappedWorkerOptions<R> {
  /**
   * the worker's start (infra/workers/worker-entry.ts): its body says `{type:'ready'}`, answers `{type:'build', jobId, …}`
   * with a DoneMessage and asks `{type:'font', id, jobId, fileName}` (and, for jobs given pictures, `{type:'picture', id, jobId, name, file}`)
   */
  script: WorkerEntry;
  maxHeapMb: number;
  timeoutMs: number;
  /**
   * the thread ends after this long without a job (default 30 s): an idle thread kept the heap its largest drawing grew
   * and the last drawing it read, hundreds of MB of the server's memory for good after an upload storm (issue 14 item 13)
   */
  idleMs?: number;
  /** the result of a job, or the Error to reject it with */
  result(m: DoneMessage): R | Error;
  /** what every job in flight fails with when the thread dies (out of memory, crash) or is closed */
  crashed(detail: string): Error;
  /** what a job that overran `timeoutMs` fails with */
  timedOut(detail: string): Error;
  /**
   * each job reserves the worker limit from the app's budget before it runs (waiting while the budget is full); the
   * thread's heap and the DWG reader process it starts are kept within that limit
   */
  memory?: WorkerMemory;
}

/**
 * One worker thread that runs drawing jobs one at a time (a big drawing needs the memory; caches make repeats free).
 * Its heap is capped and a job that overruns is ended by terminating the thread: the next job starts a fresh one, so
 * a bad or huge file costs one error, never the server. Fonts are fetched for the worker on request.
 */
const YOUNG_GENERATION_MB = 192;

export function createCappedWorker<R>(o: CappedWorkerOptions<R>) {
  interface Job {
    resolve(r: R): void;
    reject(e: Error): void;
    fonts: FontLookup;
    timer: NodeJS.Timeout;
    progress?: ProgressListener;
    pictures?: PictureFileLookup;
  }
  let worker: Worker | null = null;
  let ready: Promise<Worker> | null = null;
  const jobs = new Map<number, Job>();
  let nextId = 1;
  let chain: Promise<unknown> = Promise.resolve();
  let idleTimer: NodeJS.Timeout | null = null;

  function stayAwake() {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
  }
  /** After the last job: end the thread unless another job comes first (a queued one starts within a tick). */
  function retireWhenIdle() {
    stayAwake();
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (jobs.size || !worker) return;
      const w = worker;
      worker = null;
      ready = null;
      void w.terminate();
    }, o.idleMs ?? 30_000);
    idleTimer.unref();
  }

  function failAll(e: Error) {
    for (const [id, j] of jobs) {
      clearTimeout(j.timer);
      j.reject(e);
      jobs.delete(id);
    }
  }

  function start(): Promise<Worker> {
    if (ready) return ready;
    // a larger young generation: a drawing's build makes much short-lived garbage, and the default one collected it so
    // often that a 10 MB drawing's build took ~10 % longer (scene probe, median of 5)
    const maxOldGenerationSizeMb = o.memory ? threadHeapMb(o.maxHeapMb, o.memory.limitMb, YOUNG_GENERATION_MB) : o.maxHeapMb;
    // the worker script bounds its DWG reader process with the same limit (see drawings/worker-memory.mjs)
    const workerData = { ...o.script.workerData, dwgMemoryLimitMb: o.memory?.limitMb };
    const w = new Worker(o.script.script, { workerData, resourceLimits: { maxOldGenerationSizeMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    // an idle worker must not keep a finished process (tests, the CLI) alive
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
      } else if (m?.type === 'picture') {
        const job = jobs.get(m.jobId);
        const bytes = job?.pictures ? await job.pictures(String(m.name), String(m.file)).catch(() => null) : null;
        w.postMessage({ type: 'picture', id: m.id, bytes });
      } else if (m?.type === 'progress') {
        jobs.get(m.jobId)?.progress?.(Number(m.percent) || 0, String(m.stage ?? ''));
      } else if (m?.type === 'done') {
        const job = jobs.get(m.jobId);
        if (!job) return;
        jobs.delete(m.jobId);
        clearTimeout(job.timer);
        const r = o.result(m as DoneMessage);
        if (r instanceof Error) job.reject(r);
        else job.resolve(r);
        if (!jobs.size) retireWhenIdle();
      }
    });
    const reset = (e: Error) => {
      if (worker === w) {
        worker = null;
        ready = null;
      }
      failAll(o.crashed(e.message));
    };
    w.on('error', reset);
    w.on('exit', (code) => reset(new Error(`worker exited (${code})`)));
    return ready;
  }

  async function runOne(message: Record<string, unknown>, transfer: ArrayBuffer[], fonts: FontLookup, progress?: ProgressListener, pictures?: PictureFileLookup, signal?: AbortSignal): Promise<R> {
    signal?.throwIfAborted();
    stayAwake();
    // a thread that dies while starting (its heap cap, a broken install) fails this job like a crash would
    const w = await start().catch((e: Error) => {
      throw o.crashed(e.message);
    });
    signal?.throwIfAborted();
    const jobId = nextId++;
    return new Promise<R>((resolve, reject) => {
      /** the job ends now with `e`: its thread is ended (the only way to stop a build midway), the next job starts a fresh one */
      const end = (e: Error) => {
        if (!jobs.delete(jobId)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        if (worker === w) {
          worker = null;
          ready = null;
        }
        reject(e);
        void w.terminate();
      };
      const stop = () => end(signal!.reason as Error);
      const timer = setTimeout(() => end(o.timedOut(`over ${o.timeoutMs} ms`)), o.timeoutMs);
      jobs.set(jobId, {
        resolve: (r) => {
          signal?.removeEventListener('abort', stop);
          resolve(r);
        },
        reject: (e) => {
          signal?.removeEventListener('abort', stop);
          reject(e);
        },
        fonts,
        timer,
        progress,
        pictures,
      });
      signal?.addEventListener('abort', stop, { once: true });
      w.postMessage({ ...message, type: 'build', jobId, timeoutMs: o.timeoutMs }, transfer);
    });
  }

  /** one job under a reservation of the worker limit: it waits for room, and gives it back however it ends */
  function runReserved(message: Record<string, unknown>, transfer: ArrayBuffer[], fonts: FontLookup, progress?: ProgressListener, pictures?: PictureFileLookup, signal?: AbortSignal): Promise<R> {
    const one = () => runOne(message, transfer, fonts, progress, pictures, signal);
    return o.memory ? o.memory.budget.run(o.memory.limitMb, one) : one();
  }

  return {
    /**
     * Jobs are queued: one at a time through the thread. `transfer` buffers move to the worker (pass copies).
     * `signal`: aborting it ends the job at once with the signal's reason (its thread is ended: a pre-empted build).
     */
    run(message: Record<string, unknown>, transfer: ArrayBuffer[], fonts: FontLookup, progress?: ProgressListener, pictures?: PictureFileLookup, signal?: AbortSignal): Promise<R> {
      const run = chain.then(() => runReserved(message, transfer, fonts, progress, pictures, signal));
      chain = run.catch(() => undefined);
      return run;
    },
    /** whether its thread is up (a job on it starts without the thread's start-up) */
    get alive() {
      return worker !== null;
    },
    /** Starts the thread ahead of a job (it retires when idle as always): the next job does not wait for its start. */
    warm() {
      if (worker || jobs.size) return;
      start().then(() => {
        if (!jobs.size) retireWhenIdle();
      }, () => undefined);
    },
    async close() {
      stayAwake();
      failAll(o.crashed('closing'));
      const w = worker;
      worker = null;
      ready = null;
      await w?.terminate();
    },
  };
}
