// Worker thread that turns drawing bytes into scene bytes, so parsing a large file never blocks the API's
// event loop and its memory is capped (resourceLimits set by the parent). Plain .mjs: it loads the engine's
// TypeScript through tsx's API, which works the same under `tsx`, vitest and `npm start`.
import { parentPort } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';
import { askFont, takeFontAnswer } from './worker-fonts.mjs';

const cad = await tsImport('@cadcloud/cad', import.meta.url);

parentPort.on('message', async (m) => {
  if (takeFontAnswer(m)) return;
  if (m.type !== 'build') return;
  try {
    const t0 = performance.now();
    const d = await cad.readDrawing(new Uint8Array(m.bytes), m.fileName, { timeoutMs: m.timeoutMs });
    const text = typeof cad.loadFonts === 'function' && typeof cad.textGeometry === 'function'
      ? async (drawing) => {
          const fonts = await cad.loadFonts(drawing, (name) => askFont(m.jobId, name));
          return { textGeometry: (run) => cad.textGeometry(run, drawing, fonts), textGlyphs: cad.textGlyphs && ((run) => cad.textGlyphs(run, drawing, fonts)), fonts: { requested: fonts.report.requested, substituted: fonts.report.substituted } };
        }
      : undefined;
    const timings = { parse: performance.now() - t0 };
    const scene = await cad.buildSceneBytes(d, m.layout, text, { batchBytes: m.batchBytes, timings });
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: true, scene, timings }, [scene.buffer]);
  } catch (e) {
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: false, message: e?.message ?? String(e), detail: e?.detail, layout: e?.message === 'Layout switch failed!' });
  }
});
parentPort.postMessage({ type: 'ready' });
