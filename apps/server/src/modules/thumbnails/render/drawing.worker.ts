import { parentPort, workerData } from 'node:worker_threads';
import { drawingThumbnailPng } from './drawing-thumbnail.ts';

/** Worker thread body: one drawing in (workerData), one PNG or one error message out, then the thread ends. */
const { dxf, size, pictures } = workerData as { dxf: Uint8Array; size: number; pictures?: Record<string, Uint8Array> };
try {
  const r = await drawingThumbnailPng(dxf, size, pictures);
  parentPort!.postMessage({ ok: true, png: r.png, polylines: r.polylines, texts: r.texts, pictureNames: r.pictureNames, notDrawn: r.notDrawn });
} catch (e) {
  parentPort!.postMessage({ ok: false, error: (e as Error)?.message ?? String(e) });
}
