// The reader process's own watchdog, in a thread of its own so it runs while LibreDWG's WebAssembly keeps the main
// thread busy. The parent's watchdog (isolation/memory-watchdog.ts) is the one that normally acts; this one is for a
// reader whose parent is gone — a worker thread terminated for its deadline leaves its reader process behind, with
// nobody left to watch it. Over its memory limit, or past the deadline of the job it is running, it ends the process.
import { Worker } from 'node:worker_threads';

/** what the parent finds on stderr when this watch ended the process */
export const SELF_STOP_MARK = 'reader-self-watch:';

/**
 * Starts the watch: above `maxMb` of RSS the process ends. Returns `job(ms)`: call it when a job starts, with the
 * time it may take (the watch ends the process a little after that), and `job(0)` when it is done.
 */
export function startSelfWatch(maxMb) {
  const state = new SharedArrayBuffer(4);
  const view = new Int32Array(state);
  const w = new Worker(new URL('./reader-self-watch.thread.mjs', import.meta.url), { workerData: { state, maxMb, mark: SELF_STOP_MARK }, execArgv: [] });
  w.unref();
  return (ms) => Atomics.store(view, 0, ms > 0 ? Math.ceil(Date.now() / 1000 + ms / 1000) : 0);
}
