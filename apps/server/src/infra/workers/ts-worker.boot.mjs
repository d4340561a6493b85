// Plain-JS entry of a worker thread started from the sources (tsx, vitest): a thread starts without the TypeScript
// loader its parent runs under, so it registers tsx itself and then loads its body (workerData.entry). The compiled
// build never comes here: its threads start on their bundled bodies (worker-entry.ts).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
