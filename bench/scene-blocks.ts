/**
 * Block instancing, on and off, for drawings given on the command line (`fixture` = the test drawing with a block
 * inserted 1,000 times): scene bytes, build time (flatten + compile + encode, as `buildSceneBytes` with the server's
 * text support, fonts from the bundled fallbacks), block meshes and instances, and the draw calls of one frame with
 * every layer on. "Off" is the scene without block instancing (the flattening without instances, compiled).
 *
 *   npx tsx bench/scene-blocks.ts /tmp/big10.dxf ../shared/samples/dxf_dxfjs_floorplan.dxf fixture
 *
 * Times are medians of BENCH_REPS (default 5) alternating runs, wall clock and process CPU.
 */
import { readFileSync } from 'node:fs';
import * as cad from '../packages/cad/src/index.ts';
import { blockFixtureDxf } from '../packages/cad/src/testing/block-fixture.ts';
import type { Scene } from '../packages/cad/src/scene/scene.types.ts';

const reps = Number(process.env.BENCH_REPS ?? 5);
const median = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1];

/** Draw calls of a frame with every layer on (lineweights off): merged layer runs, one or two per glyph and block mesh. */
function drawCalls(s: Scene): number {
  const runs = (ranges: number[][]) => {
    let n = 0, end = -1;
    for (const [, first, count] of ranges) {
      if (first !== end) n++;
      end = first + count;
    }
    return n;
  };
  const meshes = (list: number[][] | undefined) => (list ?? []).reduce((a, g) => a + (g[1] && g[5] ? 1 : 0) + (g[3] && g[5] ? 1 : 0), 0);
  return runs(s.meta.triRanges) + runs(s.meta.lineRanges) + meshes(s.meta.glyphs) + meshes(s.meta.blocks);
}

for (const file of process.argv.slice(2)) {
  const d = file === 'fixture' ? cad.parseDxf(blockFixtureDxf(1000)) : await cad.readDrawing(readFileSync(file), file);
  const fonts = await cad.loadFonts(d, async () => null);
  const text = { textGeometry: (r: cad.TextRun) => cad.textGeometry(r, d, fonts), textGlyphs: (r: cad.TextRun) => cad.textGlyphs(r, d, fonts) };
  const layouts = cad.layoutNames(d);
  const result: Record<'on' | 'off', { wall: number[]; cpu: number[]; bytes: number; meshes: number; instances: number; drawCalls: number }> = {} as never;
  const run = (mode: 'on' | 'off') => {
    const t = performance.now(), c = process.cpuUsage();
    const flat = cad.flattenLayout(d, cad.MODEL, { blockInstances: mode === 'on' })!;
    const s = cad.compileScene(d, flat, { layout: cad.MODEL, layouts, ...text });
    const bytes = cad.encodeScene(s).length;
    const cpu = process.cpuUsage(c);
    const r = (result[mode] ??= { wall: [], cpu: [], bytes, meshes: s.meta.blocks?.length ?? 0, instances: s.blockInstanceEntities.length, drawCalls: drawCalls(s) });
    r.wall.push(performance.now() - t);
    r.cpu.push((cpu.user + cpu.system) / 1000);
  };
  // one warm-up each, then alternating
  run('off');
  run('on');
  for (const r of Object.values(result)) {
    r.wall = [];
    r.cpu = [];
  }
  for (let i = 0; i < reps; i++) for (const m of i % 2 ? (['on', 'off'] as const) : (['off', 'on'] as const)) run(m);
  const { on, off } = result;
  console.log(JSON.stringify({
    file: file.split('/').pop(),
    bytes: { off: off.bytes, on: on.bytes, factor: +(off.bytes / on.bytes).toFixed(2) },
    wallMs: { off: Math.round(median(off.wall)), on: Math.round(median(on.wall)) },
    cpuMs: { off: Math.round(median(off.cpu)), on: Math.round(median(on.cpu)) },
    meshes: on.meshes,
    instances: on.instances,
    drawCalls: { off: off.drawCalls, on: on.drawCalls },
  }));
}
cad.stopDwgWorker();
