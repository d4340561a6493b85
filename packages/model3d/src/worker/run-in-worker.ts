import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ConvertOptions, ConvertResult } from '../convert.ts';
import { Model3dError, type Model3dErrorKind, type Model3dOverLimit, timedOut, tooLarge } from '../errors.ts';
import type { Model3dProgress } from '../progress.ts';

export interface WorkerLimits {
  /** aborting it ends the conversion at once (its thread terminated), rejecting with the signal's reason */
  signal?: AbortSignal;
  /** the thread's V8 heap (old generation) cap, MB (WebAssembly memory is bounded by maxWasmInputBytes instead) */
  maxOldGenerationSizeMb?: number;
  /** the conversion is ended after this long */
  timeoutMs?: number;
}

export const DEFAULT_WORKER_LIMITS: Required<Omit<WorkerLimits, 'signal'>> = { maxOldGenerationSizeMb: 1536, timeoutMs: 10 * 60_000 };

/** where the thread starts: from the sources a tsx boot, compiled the bundled model3d.worker.mjs beside this bundle */
function entry(): { script: string; workerData: { entry?: string } } {
  if (!new URL(import.meta.url).pathname.endsWith('.ts')) return { script: path.join(import.meta.dirname, 'model3d.worker.mjs'), workerData: {} };
  return { script: path.join(import.meta.dirname, 'boot.mjs'), workerData: { entry: pathToFileURL(path.join(import.meta.dirname, 'convert.worker.ts')).href } };
}

/**
 * convertToGlb in a worker thread of its own with a capped heap and a time limit: a runaway conversion ends the
 * thread, never the process. Rejects with Model3dError: 'timeout' past timeoutMs, 'too-large' when the thread runs
 * out of its heap, or the conversion's own kind.
 */
export function convertInWorker(input: Uint8Array, name: string, o: ConvertOptions & WorkerLimits = {}): Promise<ConvertResult> {
  const { maxOldGenerationSizeMb, timeoutMs } = { ...DEFAULT_WORKER_LIMITS, ...o };
  const signal = o.signal;
  if (signal?.aborted) return Promise.reject(signal.reason);
  // onProgress stays here (a function does not cross into the thread): the thread's progress messages call it
  const options: ConvertOptions = { limits: o.limits, extraFiles: o.extraFiles, thumbnail: o.thumbnail };
  // a copy of its own (a Buffer's slice() is a view: transferring it would take the caller's bytes, or a shared pool)
  const copy = new Uint8Array(input);
  const e = entry();
  return new Promise((resolve, reject) => {
    let settled = false;
    const worker = new Worker(e.script, {
      workerData: { ...e.workerData, input: copy, name, options },
      transferList: [copy.buffer],
      resourceLimits: { maxOldGenerationSizeMb },
    });
    const finish = (err: Error | null, r?: ConvertResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      void worker.terminate();
      if (err) reject(err);
      else resolve(r!);
    };
    const timer = setTimeout(() => finish(timedOut(`${name}: conversion took longer than ${timeoutMs} ms`)), timeoutMs);
    const stop = () => finish(signal!.reason as Error);
    signal?.addEventListener('abort', stop, { once: true });
    worker.on('message', (m: { ok: boolean; result?: ConvertResult; kind?: Model3dErrorKind; message?: string; overLimit?: Model3dOverLimit; progress?: Model3dProgress }) => {
      if (m.progress) {
        if (!settled) o.onProgress?.(m.progress);
        return;
      }
      if (m.ok) finish(null, m.result);
      else finish(new Model3dError(m.kind ?? 'bad-input', m.message ?? 'conversion failed', m.overLimit));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') finish(tooLarge(`${name}: conversion needed more than ${maxOldGenerationSizeMb} MB`));
      else finish(new Model3dError('bad-input', `${name}: ${err.message}`));
    });
    worker.on('exit', (code) => finish(tooLarge(`${name}: conversion thread ended (${code}) without a result`)));
  });
}
