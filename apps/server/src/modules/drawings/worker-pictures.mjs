// The worker side of capped-worker.ts's picture exchange (like worker-fonts.mjs for fonts): a worker thread has no
// database or storage, so it asks the parent for the picture an IMAGE names and gets its bytes (or null) back.
import { parentPort } from 'node:worker_threads';

const waiters = new Map();
let nextId = 1;

/** The bytes of the picture file an IMAGE of job `jobId` names (base name `name`, as written `file`), or null. */
export function askPicture(jobId, name, file) {
  const id = nextId++;
  return new Promise((resolve) => {
    waiters.set(id, resolve);
    parentPort.postMessage({ type: 'picture', id, jobId, name, file });
  });
}

/** Call with every message from the parent: true when it was a picture answer (and is now handled). */
export function takePictureAnswer(m) {
  if (m?.type !== 'picture') return false;
  waiters.get(m.id)?.(m.bytes ? new Uint8Array(m.bytes) : null);
  waiters.delete(m.id);
  return true;
}
