// Plain-JS entry of the thumbnail worker thread: a worker starts without the TypeScript loader the server
// runs under (tsx, or vitest's transform), so it registers tsx itself and then loads the TypeScript body.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
