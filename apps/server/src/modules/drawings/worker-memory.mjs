// The worker-thread side of the memory limit (capped-worker.ts passes it as workerData): the DWG reader process this
// thread starts gets the same limit, and is stopped as soon as it is idle, so it only holds memory during a job
// (which has reserved it from the app's budget).
import { workerData } from 'node:worker_threads';

/** Call once with the engine module, before the first file is read. */
export function boundDwgReader(cad) {
  const limit = workerData?.dwgMemoryLimitMb;
  if (limit) cad.configureDwgWorker({ memoryLimitMb: limit, idleMs: 0 });
}
