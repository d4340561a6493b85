// Plain-JS start of the conversion thread when run from the sources (tsx, vitest): a thread has no TypeScript
// loader of its own, so it registers tsx and loads its body (workerData.entry). The compiled build starts the
// bundled body (model3d.worker.mjs, scripts/build.mjs) and never comes here.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
