// Body of the thread convertInWorker starts: one conversion per thread (the WebAssembly readers' heaps grow and never
// shrink: ending the thread gives their memory back). The job comes in workerData; the answer is one message.
import { parentPort, workerData } from 'node:worker_threads';
import { convertToGlb } from '../convert.ts';
import { asModel3dError } from '../errors.ts';

const job = workerData as { input: Uint8Array; name: string; options: Parameters<typeof convertToGlb>[2] };
try {
  // the stages and percents go out as they come (the reporter sends only changes): the caller shows them
  const r = await convertToGlb(job.input, job.name, { ...job.options, onProgress: (progress) => parentPort!.postMessage({ progress }) });
  parentPort!.postMessage({ ok: true, result: r }, [r.glb.buffer as ArrayBuffer, ...(r.lod ? [r.lod.buffer as ArrayBuffer] : [])]);
} catch (e) {
  const err = asModel3dError(e);
  parentPort!.postMessage({ ok: false, kind: err.kind, message: err.message, overLimit: err.overLimit });
}
