/**
 * 3D viewer frame time while orbiting a big model (issue 21 part 3 and its bench item), in Debian's headless
 * Chromium: WebGL2 through SwiftShader, i.e. SOFTWARE rendering on the CPU (two cores here, shared). The figures are
 * those of a machine without a GPU; a real GPU draws these models many times faster. What is compared in the same
 * run is the viewer with its coarse level while the camera moves (LOD on) against the full model every frame (LOD off).
 *
 *   1. A model of N finely tessellated, slightly rough spheres (packages/model3d fixtures/spheres.ts: one mesh and node
 *      each, like the parts of an assembly) is generated as a plain GLB: ~2 million and ~5 million triangles.
 *   2. It is converted by our pipeline (convertInWorker, default limits: a coarse level above 1 M triangles, ~250 k
 *      kept): time, GLB and coarse level sizes.
 *   3. A bare page with the viewer's own Engine (apps/web engine.ts, bundled by esbuild) loads the coarse level and
 *      then the full GLB from a loopback server, like /view3d does; time until each was drawn.
 *   4. The camera orbits once around the model in BENCH_3D_FRAMES steps (default 60) while "moving": each frame's time
 *      is the render call plus a 1-pixel readPixels (so the rasterising is in it); median and p95, LOD on vs off.
 *   5. A batched model (BENCH_3D_BATCHED millions of triangles, default 1: an OBJ of sphere objects, which the converter
 *      merges into batches as it does a building's elements; a GLB passes through unbatched): still views, fitted (all
 *      on screen) and moved sideways so that half the model is off screen, the viewer's spatial chunks (culled by the
 *      camera) vs a page that keeps the converter's merged meshes (chunking off); BENCH_3D_STILL_FRAMES each (20).
 *
 *   npm run bench -- model3d-viewer
 *   BENCH_3D_SIZES=2,5   millions of triangles (default 2,5)
 *   BENCH_3D_FRAMES=60   frames per orbit
 *   BENCH_3D_BATCHED=1   millions of triangles of the batched model (0: skip)
 */
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { convertInWorker } from '../packages/model3d/src/index.ts';
import { sphereTriangles, spheresGlb, spheresObj } from '../packages/model3d/src/fixtures/spheres.ts';
import { launchBrowser } from '../e2e/harness.ts';

const RINGS = 71; // 19 880 triangles a sphere
const FRAMES = Number(process.env.BENCH_3D_FRAMES ?? 60);
const SIZES = (process.env.BENCH_3D_SIZES ?? '2,5').split(',').map(Number).filter((n) => n > 0);
/** millions of triangles of the batched model for the chunking comparison (0: none) */
const BATCHED = (process.env.BENCH_3D_BATCHED ?? '1').split(',').map(Number).filter((n) => n > 0);
/** frames of each still view (half the model off screen; all of it on screen) */
const STILL_FRAMES = Number(process.env.BENCH_3D_STILL_FRAMES ?? 20);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
};

async function bundlePage(dir: string) {
  const { build } = await import('esbuild');
  await build({ entryPoints: [path.join(import.meta.dirname, 'model3d-viewer/page.ts')], bundle: true, format: 'esm', outfile: path.join(dir, 'page.js'), logLevel: 'error' });
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><html><body style="margin:0"><div id="host" style="width:100vw;height:100vh"></div><script type="module" src="/page.js"></script></body></html>');
}

function serve(files: Map<string, Uint8Array | string>): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const body = files.get(new URL(req.url!, 'http://x').pathname);
    if (body === undefined) return void res.writeHead(404).end();
    const type = typeof body === 'string' ? (req.url!.endsWith('.js') ? 'text/javascript' : 'text/html') : 'model/gltf-binary';
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })));
}

export async function runModel3dViewerBench() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-3d-'));
  await bundlePage(dir);
  const { readFileSync } = await import('node:fs');
  const files = new Map<string, Uint8Array | string>([['/', readFileSync(path.join(dir, 'index.html'), 'utf8')], ['/page.js', readFileSync(path.join(dir, 'page.js'), 'utf8')]]);
  const out: Record<string, unknown> = { renderer: 'headless Chromium, WebGL2 on SwiftShader (software rendering on the CPU, no GPU)', frames: FRAMES };
  const browser = await launchBrowser();
  const { url, close } = await serve(files);
  try {
    for (const millions of SIZES) {
      const count = Math.round((millions * 1e6) / sphereTriangles(RINGS));
      const input = await spheresGlb(count, RINGS, 0.01);
      let t = performance.now();
      const r = await convertInWorker(input, `spheres-${millions}m.glb`, { maxOldGenerationSizeMb: 4096, timeoutMs: 30 * 60_000 });
      const convertMs = Math.round(performance.now() - t);
      files.set(`/${millions}.glb`, r.glb);
      if (r.lod) files.set(`/${millions}.lod.glb`, r.lod);
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.goto(`${url}/`);
      t = performance.now();
      await page.evaluate(([f, l]) => (window as any).openModel(f, l), [`/${millions}.glb`, r.lod ? `/${millions}.lod.glb` : null] as const);
      const openMs = Math.round(performance.now() - t);
      // a first orbit to warm up (shader compile, buffers uploaded), then one with LOD off and one with LOD on
      await page.evaluate((n) => (window as any).orbit(n, false), 4);
      const off = await page.evaluate((n) => (window as any).orbit(n, false), FRAMES);
      const on = await page.evaluate((n) => (window as any).orbit(n, true), FRAMES);
      await page.close();
      if (errors.length) throw new Error(errors.join('\n'));
      const figure = {
        triangles: r.stats.triangles, nodes: r.stats.nodes, inputMb: +(input.length / 1e6).toFixed(1), convertMs,
        glbMb: +(r.glb.length / 1e6).toFixed(2), lodMb: r.lod ? +(r.lod.length / 1e6).toFixed(2) : null, lodTriangles: r.stats.lod?.triangles ?? null,
        openMs,
        lodOff: { drawnTriangles: off.triangles, medianMs: pct(off.times, 50), p95Ms: pct(off.times, 95) },
        lodOn: { drawnTriangles: on.triangles, medianMs: pct(on.times, 50), p95Ms: pct(on.times, 95) },
      };
      console.log(`model3d-viewer ${millions}M: ${JSON.stringify(figure)}`);
      out[`${millions}M`] = figure;
    }
    // a batched model (an OBJ of sphere objects: merged by the converter like a building's elements), still views with
    // half of it off screen: the viewer's spatial chunks vs the converter's merged meshes as they are, same GLB, same run
    // (the spheres listed in grid order: each merged mesh holds neighbours; shuffled: each holds spheres from all over)
    for (const [millions, shuffled] of BATCHED.flatMap((m) => [[m, false], [m, true]] as const)) {
      const rings = 25;
      const count = Math.round((millions * 1e6) / sphereTriangles(rings));
      const input = spheresObj(count, rings, 0.01, shuffled);
      const t = performance.now();
      const r = await convertInWorker(input, `spheres-${millions}m.obj`, { maxOldGenerationSizeMb: 4096, timeoutMs: 30 * 60_000 });
      const convertMs = Math.round(performance.now() - t);
      files.set(`/b${millions}.glb`, r.glb);
      const still = (x: { times: number[]; triangles: number; calls: number }) => ({ drawnTriangles: x.triangles, drawCalls: x.calls, medianMs: pct(x.times, 50), p95Ms: pct(x.times, 95) });
      const views: Record<string, unknown> = {};
      for (const chunking of [false, true]) {
        const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        await page.goto(`${url}/`);
        await page.evaluate(([f, c]) => (window as any).openModel(f, null, c), [`/b${millions}.glb`, chunking] as const);
        await page.evaluate(() => (window as any).halfView(2)); // warm-up
        const v = await page.evaluate((n) => (window as any).halfView(n), STILL_FRAMES);
        await page.close();
        if (errors.length) throw new Error(errors.join('\n'));
        views[chunking ? 'chunked' : 'merged'] = { allOnScreen: still(v.whole), halfOffScreen: still(v.half) };
      }
      const figure = { triangles: r.stats.triangles, nodes: r.stats.nodes, convertMs, glbMb: +(r.glb.length / 1e6).toFixed(2), ...views };
      const key = `batched ${millions}M${shuffled ? ' shuffled' : ''}`;
      console.log(`model3d-viewer ${key}: ${JSON.stringify(figure)}`);
      out[key] = figure;
    }
  } finally {
    close();
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
