// Worker thread that compares two drawings: both are parsed, matched and the overlay compiled here, so two big
// drawings never block the API's event loop and their memory is capped (resourceLimits set by the parent).
// Started like the drawings module's scene worker (infra/workers/worker-entry.ts): through tsx from the sources,
// bundled to apps/server/dist/compare.worker.mjs when compiled.
import { parentPort } from 'node:worker_threads';
import * as cad from '@cadcloud/cad';
import { boundDwgReader } from '../drawings/worker-memory.mjs';
import { askFont, takeFontAnswer } from '../drawings/worker-fonts.mjs';

boundDwgReader(cad);

/** One side read; a failure says which side and whether it was a DWG conversion or a parse. */
async function read(bytes, fileName, side, timeoutMs) {
  const u8 = new Uint8Array(bytes);
  const dwg = cad.isDwgName(fileName) || (u8.length > 6 && String.fromCharCode(...u8.subarray(0, 4)) === 'AC10');
  try {
    return await cad.readDrawing(u8, fileName, { timeoutMs });
  } catch (e) {
    throw Object.assign(new Error(e?.message ?? String(e)), { kind: dwg ? 'convert' : 'parse', side, detail: e?.detail });
  }
}

parentPort.on('message', async (m) => {
  if (takeFontAnswer(m)) return;
  if (m.type !== 'build') return;
  try {
    const a = await read(m.a, m.nameA, 'a', m.timeoutMs);
    const b = await read(m.b, m.nameB, 'b', m.timeoutMs);
    const text = async (da, db) => {
      const fa = await cad.loadFonts(da, (name) => askFont(m.jobId, name));
      const fb = await cad.loadFonts(db, (name) => askFont(m.jobId, name));
      const requested = [...new Set([...fa.report.requested, ...fb.report.requested])];
      const substituted = [...fa.report.substituted, ...fb.report.substituted.filter((s) => !fa.report.substituted.some((x) => x.name === s.name))];
      return { a: (run) => cad.textGeometry(run, da, fa), b: (run) => cad.textGeometry(run, db, fb), fonts: { requested, substituted } };
    };
    const r = await cad.buildCompare(a, b, { layout: m.layout }, text);
    const changes = JSON.stringify({ layout: r.layout, counts: r.counts, changes: r.changes });
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: true, scene: r.scene, changes }, [r.scene.buffer]);
  } catch (e) {
    parentPort.postMessage({ type: 'done', jobId: m.jobId, ok: false, message: e?.message ?? String(e), kind: e?.message === 'Layout switch failed!' ? 'layout' : (e?.kind ?? 'parse'), side: e?.side, detail: e?.detail });
  }
});
parentPort.postMessage({ type: 'ready' });
