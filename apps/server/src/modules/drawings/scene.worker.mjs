// Worker thread that turns drawing bytes into scene bytes, so parsing a large file never blocks the API's
// event loop and its memory is capped (resourceLimits set by the parent). Plain .mjs: it loads the engine's
// TypeScript through tsx's API, which works the same under `tsx`, vitest and `npm start`.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

const cad = await tsImport('@cadcloud/cad', import.meta.url);
const fontWaiters = new Map();
let nextFont = 1;

/** Font bytes come from the parent (it owns the database and storage). */
function askFont(jobId, fileName) {
  const id = nextFont++;
  return new Promise((resolve) => {
    fontWaiters.set(id, resolve);
    parentPort.postMessage({ type: 'font', id, jobId, fileName });
  });
}

parentPort.on('message', async (m) => {
  if (m.type === 'font') {
    fontWaiters.get(m.id)?.(m.bytes ? new Uint8Array(m.bytes) : null);
    fontWaiters.delete(m.id);
    return;
  }
  if (m.type !== 'build') return;
  try {
    const d = await cad.readDrawing(new Uint8Array(m.bytes), m.fileName, { timeoutMs: m.timeoutMs });
    const text = typeof cad.loadFonts === 'function' && typeof cad.textGeometry === 'function'
      ? async (drawing) => {
          const fonts = await cad.loadFonts(drawing, (name) => askFont(m.jobId, name));
          return { textGeometry: (run) => cad.textGeometry(run, drawing, fonts), textGlyphs: cad.textGlyphs && ((run) => cad.textGlyphs(run, drawing, fonts)), fonts: { requested: fonts.report.requested, substituted: fonts.report.substituted } };
        }
      : undefined;
    const scene = await cad.buildSceneBytes(d, m.layout, text);
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: true, scene }, [scene.buffer]);
  } catch (e) {
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: false, message: e?.message ?? String(e), detail: e?.detail, layout: e?.message === 'Layout switch failed!' });
  }
});
parentPort.postMessage({ type: 'ready' });
