import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { dwgToDxf, isDwgR12 } from '@cadcloud/cad';
import { threadHeapMb, type WorkerMemory } from '../../../infra/workers/worker-budget.ts';
import { workerEntry } from '../../../infra/workers/worker-entry.ts';
import { ThumbnailSkipped, ThumbnailTimeout } from './thumbnail-skipped.ts';

const WORKER = workerEntry(path.join(import.meta.dirname, 'drawing.worker.ts'), 'drawing.worker');

/** Longest a drawing's thumbnail waits for opens to finish before it renders anyway (fair-queue.ts `yielding`). */
export const THUMBNAIL_YIELD_MAX_MS = 20_000;

export interface DrawingRenderOptions {
  size: number;
  timeoutMs: number;
  /** heap of the worker thread; a drawing that needs more ends that thread, never the server */
  memoryMb: number;
  /** picture files its IMAGEs show, by lower-case base name (found in the owner's drive by the caller) */
  pictures?: Record<string, Uint8Array>;
  /**
   * the app's worker memory: the render reserves one worker limit (waiting while the budget is full) for its DWG
   * conversion and its thread, and the thread's heap stays within that limit
   */
  memory?: WorkerMemory;
  /** aborting it ends the render at once with the signal's reason (an open came: fair-queue.ts `yielding`) */
  signal?: AbortSignal;
}

export interface DrawingThumbnail {
  png: Buffer;
  polylines: number;
  texts: number;
  /** base names of the pictures its IMAGEs show (model space) */
  pictureNames: string[];
  /** what the layout it shows leaves undrawn, by type: the report `cad info` and the viewer give */
  notDrawn: Record<string, number>;
}

/** DWG files (.dwg, and .dwt/.dws, which are DWG inside) start with their version "AC10xx"; anything else is read as DXF. */
export function isDwg(bytes: Uint8Array): boolean {
  return bytes.length >= 6 && bytes[0] === 0x41 && bytes[1] === 0x43 && bytes[2] === 0x31 && bytes[3] === 0x30;
}

/**
 * A drawing (DWG or DXF bytes) to a PNG thumbnail. DWG R13+ becomes DXF in the engine's LibreDWG process (isolated,
 * reused, restarted after any failure); parsing, flattening and rasterising run in a fresh worker thread with
 * a heap cap and a deadline, so neither a huge nor a hostile file can stall or exhaust the server.
 * A file that cannot be drawn is a ThumbnailSkipped with the reason; running out of time a ThumbnailTimeout.
 */
export async function renderDrawingThumbnail(bytes: Buffer, o: DrawingRenderOptions): Promise<DrawingThumbnail> {
  const m = o.memory;
  if (!m) return render(bytes, o);
  return m.budget.run(m.limitMb, () => render(bytes, { ...o, memoryMb: threadHeapMb(o.memoryMb, m.limitMb, youngMb(o.memoryMb)) }));
}

/** the young generation of a render thread with this heap */
const youngMb = (memoryMb: number) => Math.min(64, Math.max(8, memoryMb / 8));

async function render(bytes: Buffer, o: DrawingRenderOptions): Promise<DrawingThumbnail> {
  o.signal?.throwIfAborted();
  const started = Date.now();
  let dxf: Uint8Array = bytes;
  // R10–R12 DWG goes to the worker as it is: the engine reads it there itself (LibreDWG writes no entities for it)
  if (isDwg(bytes) && !isDwgR12(bytes)) {
    const version = bytes.subarray(0, 6).toString('latin1');
    if (version < 'AC1012') throw new ThumbnailSkipped(`DWG ${version} (older than R10) is not read`);
    try {
      dxf = await dwgToDxf(bytes, { timeoutMs: o.timeoutMs });
    } catch (e) {
      const msg = (e as Error).message;
      throw /longer than/.test(msg) ? new ThumbnailTimeout(msg) : new ThumbnailSkipped(`DWG not readable: ${msg}`);
    }
  }
  const left = o.timeoutMs - (Date.now() - started);
  if (left <= 0) throw new ThumbnailTimeout(`reading the drawing took longer than ${o.timeoutMs} ms`);
  // the DWG conversion is not stopped midway (its process is shared): a stop during it takes effect here
  o.signal?.throwIfAborted();
  return inWorker(dxf, o.size, left, o.memoryMb, o.pictures, o.signal);
}

function inWorker(dxf: Uint8Array, size: number, timeoutMs: number, memoryMb: number, pictures?: Record<string, Uint8Array>, signal?: AbortSignal): Promise<DrawingThumbnail> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER.script, {
      workerData: { ...WORKER.workerData, dxf, size, pictures },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: youngMb(memoryMb) },
    });
    let settled = false;
    const stop = () => finish(() => reject(signal!.reason));
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
      void worker.terminate();
      settle();
    };
    signal?.addEventListener('abort', stop, { once: true });
    const timer = setTimeout(() => finish(() => reject(new ThumbnailTimeout(`rendering took longer than ${timeoutMs} ms`))), timeoutMs);
    worker.once('message', (m: { ok: boolean; png?: Uint8Array; polylines?: number; texts?: number; pictureNames?: string[]; notDrawn?: Record<string, number>; error?: string }) =>
      finish(() => (m.ok ? resolve({ png: Buffer.from(m.png!), polylines: m.polylines ?? 0, texts: m.texts ?? 0, pictureNames: m.pictureNames ?? [], notDrawn: m.notDrawn ?? {} }) : reject(new ThumbnailSkipped(`drawing not readable: ${m.error}`)))),
    );
    worker.once('error', (e: Error & { code?: string }) =>
      finish(() => reject(new ThumbnailSkipped(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `rendering needed more than ${memoryMb} MB` : `rendering failed: ${e.message}`))),
    );
    worker.once('exit', (code) => finish(() => reject(new ThumbnailSkipped(`the render worker stopped (exit ${code})`))));
  });
}
