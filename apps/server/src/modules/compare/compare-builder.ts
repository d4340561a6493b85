import path from 'node:path';
import type { WorkerMemory } from '../../infra/workers/worker-budget.ts';
import { workerEntry } from '../../infra/workers/worker-entry.ts';
import { createCappedWorker, type FontLookup } from '../drawings/capped-worker.ts';

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

const WORKER = workerEntry(path.join(import.meta.dirname, 'compare.worker.mjs'), 'compare.worker');

/** Compares run in one capped worker thread (see drawings/capped-worker.ts), one pair at a time. */
export function createCompareBuilder(o: { maxHeapMb: number; timeoutMs: number; memory?: WorkerMemory }) {
  const worker = createCappedWorker<CompareBuilt>({
    script: WORKER,
    ...o,
    result: (m) => (m.ok ? { scene: m.scene as Uint8Array, changes: m.changes as string } : new CompareBuildError(m.kind as CompareBuildError['kind'], String(m.message), m.side as 'a' | 'b' | undefined, m.detail as string | undefined)),
    // out of memory or a crash while parsing: the drawing could not be parsed
    crashed: (detail) => new CompareBuildError('parse', 'The drawing analysis failed!', undefined, detail),
    timedOut: (detail) => new CompareBuildError('timeout', 'The drawing analysis failed!', undefined, detail),
  });
  return {
    build(input: CompareInput, fonts: FontLookup): Promise<CompareBuilt> {
      // copies the worker takes over (Buffer#slice would be a view: transferring it detaches the caller's bytes)
      const a = new Uint8Array(input.a), b = new Uint8Array(input.b);
      return worker.run({ a, b, nameA: input.nameA, nameB: input.nameB, layout: input.layout }, [a.buffer, b.buffer], fonts);
    },
    close: worker.close,
  };
}

export type CompareBuilder = ReturnType<typeof createCompareBuilder>;
