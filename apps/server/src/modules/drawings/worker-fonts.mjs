// The worker side of capped-worker.ts's font exchange: a worker thread has no database or storage, so it asks the
// parent for a font file by name and gets its bytes (or null) back.
import { parentPort } from 'node:worker_threads';

const waiters = new Map();
let nextId = 1;

/** The bytes of a font the drawing of job `jobId` asks for, or null when nobody has it. */
export function askFont(jobId, fileName) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiters.set(id, resolve);
    parentPort.postMessage({ type: 'font', id, jobId, fileName });
  });
}

/** Call with every message from the parent: true when it was a font answer (and is now handled). */
export function takeFontAnswer(m) {
  if (m?.type !== 'font') return false;
  waiters.get(m.id)?.(m.bytes ? new Uint8Array(m.bytes) : null);
  waiters.delete(m.id);
  return true;
}
