// Worker thread that turns drawing bytes into scene bytes, so parsing a large file never blocks the API's
// event loop and its memory is capped (resourceLimits set by the parent). From the sources the thread starts on
// infra/workers/ts-worker.boot.mjs, which loads this file and the engine's TypeScript through tsx; the compiled build
// bundles it to apps/server/dist/scene.worker.mjs (infra/workers/worker-entry.ts).
import { parentPort } from 'node:worker_threads';
import * as cad from '@cadcloud/cad';
import { boundDwgReader } from './worker-memory.mjs';
import { askFont, takeFontAnswer } from './worker-fonts.mjs';

boundDwgReader(cad);

/**
 * The drawing read last, kept for the next build of the same file (another of its layouts: the prewarm after an
 * upload builds them one after the other, and a user switches to them): reading is most of a DWG's build. It is let
 * go before any other file is read, so the heap never holds two drawings.
 */
let last = null;
/** an idle worker does not hold a drawing for long (a large one is hundreds of MB) */
const KEEP_MS = 60_000;
let forget = null;

async function drawingOf(m, timings) {
  const key = m.key ? `${m.key}\n${m.fileName}` : null;
  if (key && last?.key === key) return last.drawing;
  last = null;
  const t0 = performance.now();
  const drawing = await cad.readDrawing(new Uint8Array(m.bytes), m.fileName, { timeoutMs: m.timeoutMs });
  timings.parse = performance.now() - t0;
  if (key) last = { key, drawing };
  return drawing;
}

parentPort.on('message', async (m) => {
  if (takeFontAnswer(m)) return;
  if (m.type !== 'build') return;
  try {
    const timings = {};
    const d = await drawingOf(m, timings);
    const text = typeof cad.loadFonts === 'function' && typeof cad.textGeometry === 'function'
      ? async (drawing) => {
          const fonts = await cad.loadFonts(drawing, (name) => askFont(m.jobId, name));
          return { textGeometry: (run) => cad.textGeometry(run, drawing, fonts), textGlyphs: cad.textGlyphs && ((run) => cad.textGlyphs(run, drawing, fonts)), fonts: { requested: fonts.report.requested, substituted: fonts.report.substituted } };
        }
      : undefined;
    // budgetMs: flattening and compiling end with cad.tooComplex past it (the engine's content bounds), well before the
    // worker's hard timeout terminates the thread
    const scene = await cad.buildSceneBytes(d, m.layout, text, { batchBytes: m.batchBytes, timings, budgetMs: m.budgetMs });
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: true, scene, timings }, [scene.buffer]);
    clearTimeout(forget);
    forget = setTimeout(() => (last = null), KEEP_MS);
    forget.unref();
  } catch (e) {
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: false, message: e?.message ?? String(e), detail: e?.detail, code: e?.code, layout: e?.message === 'Layout switch failed!' });
  }
});
parentPort.postMessage({ type: 'ready' });
