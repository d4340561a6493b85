import path from 'node:path';
import { workerEntry } from '../../infra/workers/worker-entry.ts';
import type { ConvertOptions } from '@cadcloud/cad';
import { workerMemory } from '../../infra/workers/worker-budget.ts';
import { createCappedWorker, type FontLookup, type PictureFileLookup, type ProgressListener } from '../drawings/capped-worker.ts';

/**
 * How a conversion failed in its worker: `engine` (the engine refused: unreadable drawing, no such layout, no writer;
 * `code` is the engine's), `timeout` (the worker's time cap) or `crash` (the thread died: out of memory, or the server
 * closing). Only a crash is worth another try.
 */
export class ConversionRunError extends Error {
  constructor(readonly kind: 'engine' | 'timeout' | 'crash', message: string, readonly code?: string, readonly detail?: string) {
    super(message);
  }
}

export interface ConvertedFile {
  bytes: Buffer;
  ext: string;
  mime: string;
}

const WORKER = workerEntry(path.join(import.meta.dirname, 'convert.worker.mjs'), 'convert.worker');

/** Conversions run one at a time in one capped worker thread (drawings/capped-worker.ts, like the scene builder). */
export function createConversionRunner(o: { maxHeapMb: number; timeoutMs: number; memory?: ReturnType<typeof workerMemory>; idleMs?: number }) {
  const worker = createCappedWorker<ConvertedFile>({
    script: WORKER,
    ...o,
    result: (m) => {
      if (!m.ok) return new ConversionRunError('engine', String(m.message), m.code as string | undefined, m.detail as string | undefined);
      const b = m.bytes as Uint8Array;
      return { bytes: Buffer.from(b.buffer, b.byteOffset, b.byteLength), ext: String(m.ext), mime: String(m.mime) };
    },
    crashed: (detail) => new ConversionRunError('crash', 'conversion worker died', undefined, detail),
    timedOut: (detail) => new ConversionRunError('timeout', 'conversion took too long', undefined, detail),
  });
  return {
    /** `pictures`: the files IMAGEs name, from the drawing owner's drive (none: IMAGEs keep only their frames). */
    run(bytes: Uint8Array, fileName: string, target: string, options: ConvertOptions, fonts: FontLookup, progress?: ProgressListener, pictures?: PictureFileLookup): Promise<ConvertedFile> {
      const copy = new Uint8Array(bytes);
      return worker.run({ bytes: copy, fileName, target, options }, [copy.buffer], fonts, progress, pictures);
    },
    close: worker.close,
  };
}

export type ConversionRunner = ReturnType<typeof createConversionRunner>;

const shared = new WeakMap<object, ConversionRunner>();

/** One runner (one worker thread) per app. */
export function sharedConversionRunner(deps: { config: { conversionMaxHeapMb: number; conversionTimeoutMs: number; workerMemoryBudgetMb: number; workerMemoryLimitMb: number } }): ConversionRunner {
  let r = shared.get(deps);
  if (!r) {
    r = createConversionRunner({ maxHeapMb: deps.config.conversionMaxHeapMb, timeoutMs: deps.config.conversionTimeoutMs, memory: workerMemory(deps.config) });
    shared.set(deps, r);
  }
  return r;
}
