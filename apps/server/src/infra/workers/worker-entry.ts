import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** How to start one worker thread: its script, and what its workerData must carry besides the job's own. */
export interface WorkerEntry {
  script: string;
  workerData: { entry?: string };
}

/**
 * The start of a worker thread whose body is `source` (an absolute path: `.ts`, or `.mjs` that imports TypeScript).
 * From the sources (tsx, vitest) the thread has no TypeScript loader of its own, so it starts on ts-worker.boot.mjs,
 * which registers tsx and then loads the body. Compiled (`npm run build`), the body is bundled to `<compiledName>.mjs`
 * beside the server's bundle and plain node runs it: no TypeScript compiler at run time. The names are the entries
 * of scripts/build.mjs.
 */
export function workerEntry(source: string, compiledName: string): WorkerEntry {
  // this module's own path says whether it runs compiled (a bundle is .mjs; tsx may add a query to a source's address)
  if (!new URL(import.meta.url).pathname.endsWith('.ts')) return { script: path.join(import.meta.dirname, `${compiledName}.mjs`), workerData: {} };
  return { script: path.join(import.meta.dirname, 'ts-worker.boot.mjs'), workerData: { entry: pathToFileURL(source).href } };
}
