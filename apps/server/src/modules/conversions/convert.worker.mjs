// Worker thread that converts one drawing's bytes to another format (issue 17), so a large conversion never blocks
// the API's event loop and its memory and time are capped (capped-worker.ts, as for scenes). Same shape as
// drawings/scene.worker.mjs: from the sources the thread starts on infra/workers/ts-worker.boot.mjs (tsx), the
// compiled build bundles it to apps/server/dist/convert.worker.mjs; fonts are asked of the parent.
import { parentPort } from 'node:worker_threads';
import * as cad from '@cadcloud/cad';
import { boundDwgReader } from '../drawings/worker-memory.mjs';
import { askFont, takeFontAnswer } from '../drawings/worker-fonts.mjs';
import { askPicture, takePictureAnswer } from '../drawings/worker-pictures.mjs';

boundDwgReader(cad);

/** Progress as the task panel shows it: the engine's 0–100 mapped into the part of the job after reading. */
function reporter(jobId) {
  let last = -1;
  return (percent, stage) => {
    const p = Math.max(0, Math.min(100, Math.round(percent)));
    if (p === last && stage !== 'done') return;
    last = p;
    parentPort.postMessage({ type: 'progress', jobId, percent: p, stage });
  };
}

parentPort.on('message', async (m) => {
  if (takeFontAnswer(m) || takePictureAnswer(m)) return;
  if (m.type !== 'build') return;
  const progress = reporter(m.jobId);
  try {
    progress(5, 'read');
    // a PDF source is imported as a drawing (its own reading fills 5–30); a DWG/DXF read
    const pdf = cad.isPdfName(m.fileName);
    const drawing = await cad.readConvertSource(new Uint8Array(m.bytes), m.fileName, m.target, { timeoutMs: m.timeoutMs, pdf: m.options?.pdf, onProgress: (pct) => progress(5 + pct / 4, 'read') });
    progress(30, 'fonts');
    // text geometry, glyphs and boxes: PDFs carry real text with embedded subset fonts, not only strokes (a DXF
    // written from a PDF's drawing needs no fonts)
    const support = pdf ? {} : await cad.loadConvertText(drawing, (name) => askFont(m.jobId, name));
    // the engine's own progress (flatten, draw, write) fills 35–95; the parent stores the result after
    const onProgress = (pct, stage) => progress(35 + (pct * 60) / 100, stage);
    // each page's IMAGEs show their pictures, asked of the parent by name (found in the owner's drive as the viewer's are)
    const loadPictures = async (flat) => (await cad.loadRenderPictures(cad.imageRefs(drawing, flat), (name, file) => askPicture(m.jobId, name, file))).pictures;
    const out = await cad.convertDrawing(drawing, m.target, m.options ?? {}, { ...support, onProgress, loadPictures });
    const bytes = new Uint8Array(out.bytes.buffer, out.bytes.byteOffset, out.bytes.byteLength).slice();
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: true, bytes, ext: out.ext, mime: out.mime }, [bytes.buffer]);
  } catch (e) {
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: false, message: e?.message ?? String(e), code: e?.code, detail: e?.detail });
  }
});
parentPort.postMessage({ type: 'ready' });
