/**
 * Viewer benchmarks (issue: viewer performance), in Debian's headless Chromium (WebGL2 through SwiftShader:
 * software rendering on the CPU, so frame times are those of a machine without a GPU). Every figure is measured
 * in one run next to its baseline, dxf-viewer 1.0.49 (three.js), built from bench/viewer/dxf-viewer with Vite
 * into a temp folder and served by a plain loopback static server.
 *
 *   1. Time to first frame, ms since navigation start, on the sample DXFs and a generated large DXF:
 *      - ours cold: navigation to /yun/view/{id} → SPA boot → GET scene, which the server answers by reading the
 *        file, parsing and compiling it (the cache removed first: after an upload the product builds the scene in
 *        the background, so this is an open before that build is done or after an engine change) → decode →
 *        GL upload → first render, + one rAF;
 *      - ours warm: the same, the scene served from the server's cache (second open);
 *      - dxf-viewer: navigation to its page → fetch of the DXF → parse and scene build in the browser (main
 *        thread) → GL upload → its first Render() (the Load() promise) + one rAF.
 *      Both pages come from the browser's HTTP cache (one visit before timing), each run in a fresh tab.
 *      Target: ours ≤ ½ dxf-viewer's time.
 *   2. Second open of the floor plan DWG from the cache (target < 300 ms), with the breakdown from
 *      user-timing marks in the viewer (scene-api.ts / Viewer.tsx) and the scene request's resource timing.
 *   3. Pan and zoom on the generated drawing: wheel zoom and drag pan for a few seconds through real input
 *      events; time of each drawn frame (the frame's work up to a 1-pixel readPixels, so SwiftShader's rasterising is in it)
 *      and the intervals between drawn frames, for ours and dxf-viewer.
 *   4. Browser memory with the ~100 MB generated DXF open (target < 1 GB): JS heap (CDP Performance.getMetrics)
 *      and the peak RSS (VmHWM) of the renderer and GPU processes, each viewer in a browser of its own.
 *   5. First open right after upload (issue 16 item 14: 9 s, and 6 s for a share recipient), time to first frame:
 *      - baseline: the drawing uploaded, its prewarm done, the scene cache removed: a cold open with nothing else
 *        running on the server;
 *      - after upload: three other drawings and then this one uploaded, the open at once (their prewarm builds
 *        running or waiting, this one's queued or building);
 *      - share recipient: the same, then the drawing shared; a visitor extracts the share and opens the drawing.
 *      Every run uploads new bytes (a DXF comment with the run's name), so no scene is cached from before.
 *
 *   npm run bench -- viewer
 *   BENCH_VIEWER_DXF_MB=10      size of the generated drawing for parts 1 and 3 (default 10)
 *   BENCH_VIEWER_MEM_MB=100     size of the generated drawing for part 4 (default 100; 0 skips part 4)
 *   BENCH_VIEWER_RUNS=3         timed runs per file and viewer (median)
 *   BENCH_VIEWER_ONLY=first,floorplan,panzoom,memory,afterupload   run only these parts
 *   BENCH_VIEWER_BG_MB=3        size of each of the three drawings uploaded beside the opened one in part 5 (default 3)
 *   BENCH_VIEWER_MEM_TIMEOUT_S=600   longest wait for the large drawing's first frame (memory is measured either way)
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import http from 'node:http';
import { createReadStream, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, samplesDir, startProduct } from '../e2e/harness.ts';
import buildWebApp from '../e2e/global-setup.ts';
import { runAdmin } from '../apps/server/src/admin/admin.cli.ts';
import { generateLargeDxf } from './gen-large-dxf.ts';
import { serveWebAppFrom, snapshotWebApp } from '../e2e/page-helpers.ts';

const MB = 1024 * 1024;
const SAMPLES = ['dxf_qcad_symbols_large.dxf', 'dxf_ezdxf_us_map.dxf', 'dxf_mlightcad_sheet_0.dxf', 'dxf_dxfjs_floorplan.dxf'];
const FLOORPLAN = 'dwg_2004_ddc_floorplan.dwg';
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const RUNS = Number(process.env.BENCH_VIEWER_RUNS ?? 3);
const VIEWPORT = { width: 1280, height: 860 };
const ONLY = (process.env.BENCH_VIEWER_ONLY ?? '').split(',').filter(Boolean);
const want = (part: 'first' | 'floorplan' | 'panzoom' | 'memory' | 'afterupload') => !ONLY.length || ONLY.includes(part);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return !s.length ? NaN : s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const r0 = (v: number) => Math.round(v);
const r1 = (v: number) => +v.toFixed(1);
const r2 = (v: number) => +v.toFixed(2);
const log = (...a: unknown[]) => console.error('[viewer bench]', ...a);

/**
 * Runs in every page before its scripts: records the first frame of our viewer — the `cad:first-frame` mark, which
 * the page sets in the requestAnimationFrame after the render that first drew the drawing (the early painter before
 * the app boots, or the viewer when there was no early frame). Pages of a build without that mark: the moment the
 * viewer publishes `window.__cadViewer` with a layout plus one requestAnimationFrame, as before.
 */
// a string, not a function: tsx's keepNames would wrap the inner functions in a `__name` the page lacks
const firstFrameProbe = `(() => {
  window.__bench = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'cad:first-frame' && window.__bench.frame === undefined) window.__bench.frame = e.startTime;
  }).observe({ type: 'mark', buffered: true });
  let v;
  Object.defineProperty(window, '__cadViewer', {
    configurable: true,
    get: () => v,
    set: (x) => {
      v = x;
      if (x && x.layout && window.__bench.frame === undefined) requestAnimationFrame(() => { if (!performance.getEntriesByName('cad:first-frame').length) window.__bench.frame ??= performance.now(); });
    },
  });
  localStorage.setItem('cadcloud.lang', 'en');
})()`;

// ---------------------------------------------------------------------------------------------- servers

/** dxf-viewer's page built with Vite, plus the drawings and the font, on a loopback static server. */
async function serveBaseline(tmp: string, files: Map<string, string>) {
  const { build } = await import('vite');
  const outDir = path.join(tmp, 'dxf-viewer-page');
  await build({ root: path.join(import.meta.dirname, 'viewer/dxf-viewer'), base: './', configFile: false, logLevel: 'warn', build: { outDir, emptyOutDir: true, chunkSizeWarningLimit: 4096 } });
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.dxf': 'application/octet-stream' };
  const server = http.createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    const file = p.startsWith('/files/') ? files.get(p.slice(7)) : p === '/fonts/DejaVuSans.ttf' ? FONT : path.join(outDir, path.normalize(p === '/' ? '/index.html' : p));
    if (!file || !file.startsWith('/') || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    // the drawings are never cached by the browser (as ours: the scene answer says no-cache), the page's code is
    res.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream', 'content-length': statSync(file).size, 'cache-control': p.startsWith('/files/') ? 'no-store' : 'max-age=3600' });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(r)) };
}

/** A user with room for the drawings, its API token (also the browser's `ticket` cookie). */
async function createUser(product: { url: string; dataDir: string }) {
  const env = { ...process.env, DATA_DIR: product.dataDir };
  const email = 'bench-viewer@example.com', password = 'bench viewer password';
  await runAdmin(['user', 'create', '--email', email, '--password', password], env);
  await runAdmin(['user', 'quota', '--email', email, '--bytes', '100GB'], env);
  const j = await (await fetch(`${product.url}/user/v5/sysuser/clientToken`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { email, password } }) })).json();
  if (!j.data?.token) throw new Error(`no token: ${JSON.stringify(j)}`);
  return j.data.token as string;
}

/** Multipart upload through the API, the file streamed from disk; the new file's id. */
function upload(base: string, token: string, file: string, name = path.basename(file)): Promise<string> {
  const head = Buffer.from(`--b\r\nContent-Disposition: form-data; name="filedata"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--b--\r\n`);
  const size = statSync(file).size;
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=b', 'content-length': head.length + size + tail.length } }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => {
        const j = JSON.parse(body);
        const id = j.bizData?.id ?? j.bizData?.fileId;
        if (j.rtnCode !== '0000000' || !id) reject(new Error(`upload of ${name} failed: ${body}`));
        else resolve(String(id));
      });
    });
    req.on('error', reject);
    req.write(head);
    createReadStream(file, { highWaterMark: MB }).on('data', (c) => req.write(c)).on('end', () => req.end(tail)).on('error', reject);
  });
}

/** The server's scene cache lives under `<storage>/scenes`: removing it makes the next open cold again. */
function clearSceneCache(dataDir: string) {
  const walk = (dir: string, depth: number) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const p = path.join(dir, e.name);
      if (e.name === 'scenes') rmSync(p, { recursive: true, force: true });
      else if (depth < 3) walk(p, depth + 1);
    }
  };
  walk(dataDir, 0);
}

/**
 * Uploads queue a background build of each drawing's scenes, Model first, then its sheets (drawing.prewarm): wait
 * until every one is stored, so no build runs beside the timing (cold opens then remove the cache first).
 */
async function waitForPrewarm(dataDir: string, files: string[], timeoutMs: number) {
  const md5s = await Promise.all(files.map(async (f) => {
    const h = createHash('md5');
    for await (const c of createReadStream(f)) h.update(c);
    return h.digest('hex');
  }));
  // sceneKey(): scenes/<md5[0:2]>/<md5>/<engine>/<layout+fonts>.bin
  const built = (md5: string) => {
    const dir = path.join(dataDir, 'storage', 'scenes', md5.slice(0, 2), md5);
    return existsSync(dir) && (readdirSync(dir, { recursive: true }) as string[]).some((f) => f.endsWith('.bin'));
  };
  const end = Date.now() + timeoutMs;
  while (!md5s.every(built)) {
    if (Date.now() > end) throw new Error(`the scenes of ${files.filter((_, i) => !built(md5s[i])).join(', ')} were not built after upload`);
    await new Promise((r) => setTimeout(r, 500));
  }
  // then the drawings' paper layouts, built after their Model scenes: done when no scene has been added for a while
  const count = () => md5s.reduce((n, md5) => n + (readdirSync(path.join(dataDir, 'storage', 'scenes', md5.slice(0, 2), md5), { recursive: true }) as string[]).filter((f) => f.endsWith('.bin')).length, 0);
  for (let n = count(), still = 0; still < 4 && Date.now() < end; await new Promise((r) => setTimeout(r, 500))) {
    const now = count();
    still = now === n ? still + 1 : 0;
    n = now;
  }
}

// ---------------------------------------------------------------------------------------------- timing

/**
 * Every timed open starts on a machine at rest: the tab before it has just been closed, and tearing down its WebGL
 * context (SwiftShader frees hundreds of MB) and renderer took both cores for a moment, which delayed the next
 * open's first bytes by 50–180 ms in some runs and not in others. Ours and dxf-viewer get the same pause.
 */
const settleBeforeOpen = () => new Promise((r) => setTimeout(r, 400));

interface OursOpen {
  frame: number;
  marks: Record<string, number>;
  scene: { requestStart: number; responseStart: number; responseEnd: number; bytes: number; cache: string; server: string } | null;
  drawCalls: number;
  /** the page's own document: when its bytes arrived */
  doc: { responseStart: number; responseEnd: number };
}

async function openOurs(ctx: BrowserContext, base: string, fileId: string, timeoutMs: number, keep = false, viewPath = `/yun/view/${fileId}`): Promise<{ open: OursOpen; page: Page }> {
  await settleBeforeOpen();
  const page = await ctx.newPage();
  let cache = '';
  page.on('response', (r) => r.url().includes('/drawing/scene') && (cache = r.headers()['x-scene-cache'] ?? ''));
  await page.goto(`${base}${viewPath}`);
  // the frame, and the app around it (its draw calls are read below)
  await page.waitForFunction(() => ((window as any).__bench?.frame !== undefined && (window as any).__cadViewer) || document.querySelector('[data-testid=viewer-error]'), undefined, { timeout: timeoutMs, polling: 50 }).catch(async (e) => {
    await page.screenshot({ path: path.join(os.tmpdir(), 'viewer-bench-timeout.png') }).catch(() => undefined);
    throw new Error(`no first frame at ${page.url()} (screenshot in ${os.tmpdir()}/viewer-bench-timeout.png): ${e.message}`);
  });
  const open = await page.evaluate(() => {
    const err = document.querySelector('[data-testid=viewer-error]');
    if (err) throw new Error(`viewer error: ${err.textContent}`);
    const marks: Record<string, number> = {};
    for (const m of performance.getEntriesByType('mark')) if (m.name.startsWith('cad:')) marks[m.name] = m.startTime;
    const res = performance.getEntriesByType('resource').find((e) => e.name.includes('/drawing/scene')) as PerformanceResourceTiming | undefined;
    const v = (window as any).__cadViewer;
    return {
      frame: (window as any).__bench.frame as number,
      marks,
      // the server's build phases (its Server-Timing header) when it built the scene for this open
      scene: res ? { requestStart: res.requestStart, responseStart: res.responseStart, responseEnd: res.responseEnd, bytes: res.encodedBodySize || res.transferSize, cache: '', server: res.serverTiming.map((t) => `${t.name} ${Math.round(t.duration)}`).join(' ') } : null,
      drawCalls: v.drawCalls() as number,
      doc: (({ responseStart, responseEnd }) => ({ responseStart, responseEnd }))(performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming),
    };
  });
  if (open.scene) open.scene.cache = cache;
  const box = await page.locator('[data-testid=viewer-canvas]').boundingBox();
  if (box) canvasSize = { w: Math.round(box.width), h: Math.round(box.height) };
  if (!keep) await page.close();
  return { open, page };
}

/**
 * The server's cold build of a scene with no browser running: the scene request answered and read whole, with the
 * cache removed first, and the build's phases from its Server-Timing header. Against the cold opens it shows what
 * sharing the machine's cores with the browser costs.
 */
async function serverAloneCold(base: string, token: string, dataDir: string, fileId: string) {
  await settleBeforeOpen();
  clearSceneCache(dataDir);
  const t0 = performance.now();
  const res = await fetch(`${base}/cloud/v5/drawing/scene?fileId=${fileId}`, { headers: { cookie: `ticket=${token}` } });
  const first = performance.now() - t0;
  await res.arrayBuffer();
  if (res.headers.get('x-scene-cache') !== 'miss') throw new Error(`server-alone build of ${fileId} was not a cache miss`);
  // the cache is written behind the answer: a write still going when the next cold open clears the cache lands after it
  const scenes = path.join(dataDir, 'storage', 'scenes');
  const stored = () => existsSync(scenes) && (readdirSync(scenes, { recursive: true }) as string[]).some((f) => f.endsWith('.bin'));
  for (const end = Date.now() + 60_000; !stored(); ) {
    if (Date.now() > end) throw new Error(`the scene of ${fileId} was not stored after its build`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return { firstByte: first, whole: performance.now() - t0, server: res.headers.get('server-timing') ?? '' };
}

/** Where an open's time went, ms after navigation: scene request sent, first byte, first batch read, first render done, frame. */
function phases(o: OursOpen) {
  const m = (k: string) => r0(o.marks[`cad:${k}`] ?? NaN);
  return `html ${r0(o.doc.responseStart)}–${r0(o.doc.responseEnd)} · request ${r0(o.scene?.requestStart ?? NaN)} · painter ${m('painter')} · first byte ${r0(o.scene?.responseStart ?? NaN)} · batch ${m('first-batch')}/${m('scene-head')} · rendered ${m('gl-uploaded')} · frame ${r0(o.frame)}${o.scene?.server ? ` (server: ${o.scene.server})` : ''}`;
}

/** our viewer's canvas (the page minus its bar and side panel): dxf-viewer is given the same size */
let canvasSize = { w: VIEWPORT.width, h: VIEWPORT.height };

async function openBaseline(ctx: BrowserContext, base: string, name: string, timeoutMs: number, keep = false): Promise<{ frame: number; loaded: number; page: Page }> {
  await settleBeforeOpen();
  const page = await ctx.newPage();
  await page.goto(`${base}/index.html?file=/files/${encodeURIComponent(name)}&font=/fonts/DejaVuSans.ttf&w=${canvasSize.w}&h=${canvasSize.h}`);
  await page.waitForFunction(() => (window as any).__bench?.frame !== undefined || (window as any).__bench?.error, undefined, { timeout: timeoutMs, polling: 50 });
  const r = await page.evaluate(() => ({ frame: (window as any).__bench.frame as number, loaded: (window as any).__bench.loaded as number, error: (window as any).__bench.error as string | undefined }));
  if (r.error) throw new Error(`dxf-viewer failed on ${name}: ${r.error}`);
  if (!keep) await page.close();
  return { frame: r.frame, loaded: r.loaded, page };
}

/**
 * Wheel zoom in and out about points of the canvas, then drag pans, through real input events for about
 * `seconds`; the page side times every drawn frame (the frame's work up to a 1-pixel readPixels) and notes when it ran.
 */
async function panZoom(page: Page, canvasSelector: string, install: string, seconds: number) {
  await page.evaluate(install);
  const box = (await page.locator(canvasSelector).boundingBox())!;
  const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
  const end = Date.now() + seconds * 1000;
  const half = Date.now() + (seconds * 1000) / 2;
  let i = 0;
  await page.mouse.move(cx, cy);
  while (Date.now() < half) {
    // zoom in 10 notches towards a point, then back out: the view stays on the drawing
    const dir = Math.floor(i / 10) % 2 ? 1 : -1;
    await page.mouse.move(cx + ((i * 37) % 200) - 100, cy + ((i * 53) % 160) - 80);
    await page.mouse.wheel(0, dir * 100);
    await new Promise((r) => setTimeout(r, 16));
    i++;
  }
  while (Date.now() < end) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let s = 1; s <= 30; s++) await page.mouse.move(cx + 200 * Math.sin(s / 5), cy + 120 * Math.cos(s / 7));
    await page.mouse.up();
  }
  // ours draws the drawing sharp again once the movement stops: that frame is counted too
  await page.waitForFunction(() => (window as any).__cadViewer?.sharp?.() !== false, undefined, { timeout: 60_000, polling: 50 });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const f = await page.evaluate(() => (window as any).__frames as { at: number; ms: number; snapshot?: boolean }[]);
  if (!f.length) throw new Error('pan/zoom drew no frame: the input did not reach the viewer');
  const stats = (ms: number[]) => (ms.length ? { frames: ms.length, p50: r1(median(ms)), p95: r1(pct(ms, 95)), max: r1(Math.max(...ms)) } : null);
  const work = f.map((x) => x.ms);
  const gaps = f.slice(1).map((x, k) => x.at - f[k].at);
  return {
    frames: f.length,
    frameMs: { p50: r1(median(work)), p95: r1(pct(work, 95)), max: r1(Math.max(...work)) },
    // ours: frames drawn from the last full frame while the view moved, and full frames of the drawing
    ...(f.some((x) => x.snapshot !== undefined) && { movingFrameMs: stats(f.filter((x) => x.snapshot).map((x) => x.ms)), sharpFrameMs: stats(f.filter((x) => !x.snapshot).map((x) => x.ms)) }),
    intervalMs: gaps.length ? { p50: r1(median(gaps)), p95: r1(pct(gaps, 95)) } : null,
    fps: r1(f.length / seconds),
  };
}

/**
 * Ours: every animation-frame callback of the page that rendered (the viewer draws in rAF; other callbacks, such as
 * the overlay's, are left out) timed up to a one-pixel readPixels after it. Chromium's gl.finish() does not wait for the GPU process here (it measured 0.4 ms for frames that took
 * seconds to appear); a readPixels must, as it returns the drawn pixel.
 */
const OURS_FRAME_TIMER = `(() => {
  const gl = window.__cadViewer.canvas.getContext('webgl2');
  const px = new Uint8Array(4);
  const raf = window.requestAnimationFrame.bind(window);
  window.__frames = [];
  const v = window.__cadViewer;
  window.requestAnimationFrame = (cb) => raf((ts) => { const n = v.renders(), s = v.snapshots(), t0 = performance.now(); cb(ts); if (v.renders() === n) return; gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); window.__frames.push({ at: t0, ms: performance.now() - t0, snapshot: v.snapshots() !== s }); });
})()`;
/** dxf-viewer renders synchronously in its controls' change events: its Render() timed the same way. */
const BASELINE_FRAME_TIMER = `(() => {
  const v = window.__bench.viewer;
  const gl = v.GetRenderer().getContext();
  const px = new Uint8Array(4);
  const render = v.Render.bind(v);
  window.__frames = [];
  v.Render = () => { const t0 = performance.now(); render(); gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, px); window.__frames.push({ at: t0, ms: performance.now() - t0 }); };
})()`;

// ---------------------------------------------------------------------------------------------- first open after upload

/** A copy of a DXF with its own bytes (a 999 comment first), so its scene is built anew. */
function uniqueCopy(src: string, dir: string, tag: string): string {
  const out = path.join(dir, `${tag}-${path.basename(src)}`);
  writeFileSync(out, Buffer.concat([Buffer.from(`999\r\n${tag}\r\n`), readFileSync(src)]));
  return out;
}

async function api(base: string, token: string, p: string, data: unknown) {
  const j = await (await fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: `ticket=${token}` }, body: JSON.stringify({ data, clientInfo: { clientType: 'Web_PC' } }) })).json();
  if (j.rtnCode !== '0000000') throw new Error(`${p}: ${JSON.stringify(j)}`);
  return j.bizData;
}

/**
 * A visitor's tab: the share extracted with its code through the share page. The page keeps the share's token in
 * the tab's sessionStorage: the timed tab opened next starts with a copy of it, as a click in the list would have.
 */
async function extractShare(ctx: BrowserContext, share: { url: string; code: string }) {
  const p = await ctx.newPage();
  await p.goto(share.url);
  await p.locator('[data-testid=share-code-input]').fill(share.code);
  await p.click('[data-testid=share-extract-submit]');
  await p.locator('[data-testid^="share-item-"]').first().waitFor({ timeout: 60_000 });
  const session = await p.evaluate(() => JSON.stringify(Object.entries(sessionStorage)));
  await p.close();
  // a string, not a function (see firstFrameProbe)
  await ctx.addInitScript(`for (const [k, v] of ${session}) sessionStorage.setItem(k, v);`);
}

async function firstOpenAfterUpload(o: { product: { url: string; dataDir: string }; token: string; browser: Browser; tmp: string; target: string; background: string[]; runs: number }) {
  const { product, token, tmp } = o;
  const ctx = await o.browser.newContext({ viewport: VIEWPORT });
  await ctx.addCookies([{ name: 'ticket', value: token, url: product.url }]);
  await ctx.addInitScript(firstFrameProbe);
  const warm = await ctx.newPage();
  await warm.goto(`${product.url}/yun/index`, { waitUntil: 'networkidle' });
  await warm.close();
  const baseline: number[] = [], afterUpload: number[] = [], recipient: number[] = [];
  const detail: Record<string, unknown>[] = [];
  /** uploads three other drawings then the target, returns the target's id: their prewarm jobs are queued */
  const uploadBeside = async (tag: string) => {
    const others = o.background.map((f, i) => uniqueCopy(f, tmp, `${tag}-bg${i}`));
    for (const f of others) await upload(product.url, token, f);
    const target = uniqueCopy(o.target, tmp, tag);
    return { id: await upload(product.url, token, target), files: [...others, target] };
  };
  for (let k = 0; k < o.runs; k++) {
    // baseline: nothing else running
    const base = uniqueCopy(o.target, tmp, `base${k}`);
    const baseId = await upload(product.url, token, base);
    await waitForPrewarm(product.dataDir, [base], 600_000);
    clearSceneCache(product.dataDir);
    const b = await openOurs(ctx, product.url, baseId, 300_000);
    baseline.push(b.open.frame);

    // right after upload, beside three other drawings' prewarm
    const up = await uploadBeside(`up${k}`);
    const a = await openOurs(ctx, product.url, up.id, 600_000);
    afterUpload.push(a.open.frame);
    await waitForPrewarm(product.dataDir, up.files, 1_200_000);

    // a share recipient, right after the sharer's uploads
    const sh = await uploadBeside(`sh${k}`);
    const share = await api(product.url, token, '/cloud/v5/share/create', { fileIds: [sh.id], validDays: 1 });
    const visitor = await o.browser.newContext({ viewport: VIEWPORT });
    await visitor.addInitScript(firstFrameProbe);
    await extractShare(visitor, share);
    const r = await openOurs(visitor, product.url, sh.id, 600_000, false, `/share/${share.rand}/view/${sh.id}`);
    recipient.push(r.open.frame);
    await visitor.close();
    await waitForPrewarm(product.dataDir, sh.files, 1_200_000);
    detail.push({ run: k, baselineMs: r0(b.open.frame), afterUploadMs: r0(a.open.frame), afterUploadServer: a.open.scene?.server, recipientMs: r0(r.open.frame), recipientServer: r.open.scene?.server, baseline: phases(b.open), recipient: phases(r.open) });
    log('first open after upload', detail.at(-1));
  }
  await ctx.close();
  return {
    file: path.basename(o.target),
    sizeMB: r2(statSync(o.target).size / MB),
    background: o.background.map((f) => `${path.basename(f)} (${r2(statSync(f).size / MB)} MB)`),
    baselineMs: r0(median(baseline)),
    afterUploadMs: r0(median(afterUpload)),
    recipientMs: r0(median(recipient)),
    afterUploadRatio: r2(median(afterUpload) / median(baseline)),
    recipientRatio: r2(median(recipient) / median(baseline)),
    runs: detail,
  };
}

// ---------------------------------------------------------------------------------------------- memory

/** Chromium processes started by this benchmark (descendants of this Node process) with their RSS and peak RSS. */
function chromiumProcesses() {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8', maxBuffer: 16 * MB })
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const m = /^\s*(\d+)\s+(\d+)\s+(\d+)\s+(.*)$/.exec(l)!;
      return { pid: +m[1], ppid: +m[2], rss: +m[3], args: m[4] };
    });
  const children = new Map<number, number[]>();
  for (const r of rows) children.set(r.ppid, [...(children.get(r.ppid) ?? []), r.pid]);
  const mine: number[] = [];
  const stack = [process.pid];
  while (stack.length) for (const c of children.get(stack.pop()!) ?? []) mine.push(c), stack.push(c);
  const out: { pid: number; type: string; rssMB: number; peakMB: number }[] = [];
  for (const r of rows) {
    if (!mine.includes(r.pid) || !r.args.includes('chrom')) continue;
    const type = /--type=([\w-]+)/.exec(r.args)?.[1] ?? 'browser';
    let peak = r.rss;
    try {
      peak = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${r.pid}/status`, 'utf8'))?.[1] ?? r.rss);
    } catch {
      /* gone */
    }
    out.push({ pid: r.pid, type, rssMB: r1(r.rss / 1024), peakMB: r1(peak / 1024) });
  }
  return out;
}
/** Memory with a drawing open; when no first frame comes in time, the same figures for the tab as it is then. */
async function memoryOf(open: (ctx: BrowserContext) => Promise<Page>) {
  const browser = await launchBrowser();
  try {
    const ctx = await browser.newContext({ viewport: VIEWPORT });
    let error: string | undefined;
    const page = await open(ctx).catch((e: Error) => {
      error = e.message.slice(0, 300);
      return ctx.pages()[ctx.pages().length - 1];
    });
    await new Promise((r) => setTimeout(r, 2000));
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const procs = chromiumProcesses();
    const renderers = procs.filter((p) => p.type === 'renderer');
    const gpu = procs.filter((p) => p.type === 'gpu-process');
    const sum = (xs: typeof procs, k: 'rssMB' | 'peakMB') => r1(xs.reduce((a, p) => a + p[k], 0));
    return {
      jsHeapUsedMB: r1(metrics.JSHeapUsedSize / MB),
      jsHeapTotalMB: r1(metrics.JSHeapTotalSize / MB),
      rendererRssMB: Math.max(...renderers.map((p) => p.rssMB)),
      rendererPeakMB: Math.max(...renderers.map((p) => p.peakMB)),
      gpuRssMB: sum(gpu, 'rssMB'),
      gpuPeakMB: sum(gpu, 'peakMB'),
      allChromiumRssMB: sum(procs, 'rssMB'),
      ...(error ? { noFirstFrame: error } : {}),
    };
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------------------------------------- the run

/**
 * The first-frame figures are those of the production build. A dist built by a test run before vite.config.ts forced
 * production mode (vitest sets NODE_ENV=test) holds React's development code: rebuild it then.
 */
function ensureProductionWebApp() {
  const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const entry = /src="\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
  if (entry && !readFileSync(path.join(dist, entry), 'utf8').includes('jsxDEV')) return;
  log('apps/web/dist is a development build: building the production one');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: path.resolve(import.meta.dirname, '../apps/web'), stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}

export async function runViewerBench() {
  const results: Record<string, unknown> = { rendering: 'Chromium headless, --disable-gpu: WebGL2 on SwiftShader (software, CPU)', runs: RUNS };
  buildWebApp();
  ensureProductionWebApp();
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-viewer-bench-'));
  const files = new Map<string, string>();
  for (const s of SAMPLES) if (existsSync(path.join(samplesDir, s))) files.set(s, path.join(samplesDir, s));
  if (!files.size) log(`no sample DXFs in ${samplesDir}: only the generated drawing is measured`);
  const genMb = Number(process.env.BENCH_VIEWER_DXF_MB ?? 10);
  const memMb = Number(process.env.BENCH_VIEWER_MEM_MB ?? 100);
  const genName = `generated-${genMb}mb.dxf`;
  files.set(genName, path.join(tmp, genName));
  log(`generating ${genName}`, generateLargeDxf(files.get(genName)!, genMb * MB, 1).entities);
  const memName = `generated-${memMb}mb.dxf`;
  if (memMb > 0 && memMb !== genMb) {
    files.set(memName, path.join(tmp, memName));
    log(`generating ${memName}`);
    generateLargeDxf(files.get(memName)!, memMb * MB, 2);
  }

  const baseline = await serveBaseline(tmp, files);
  // the product takes the large drawings (limits raised); no thumbnails, whose rendering would run beside the timing
  const product = await startProduct({ WEB_UPLOAD_FILE_SIZE: '2GB', WEB_OPEN_FILE_SIZE: '2GB', SCENE_TIMEOUT_MS: '1200000', THUMBNAIL_MAX_DRAWING_SIZE: '1' });
  let browser: Browser | null = null;
  try {
    const token = await createUser(product);
    const ids = new Map<string, string>();
    // (part 5 alone uploads its own drawings to a product of its own)
    const onlyPart5 = !(['first', 'floorplan', 'panzoom', 'memory'] as const).some(want);
    for (const [name, file] of onlyPart5 ? [] : files) if (name !== memName) ids.set(name, await upload(product.url, token, file));
    log(`product at ${product.url}, ${ids.size} files uploaded`);
    await waitForPrewarm(product.dataDir, [...[...ids.keys()].map((n) => files.get(n) ?? path.join(samplesDir, n))], 1_200_000);
    const floorplan = path.join(samplesDir, FLOORPLAN);
    if (existsSync(floorplan) && !onlyPart5) {
      ids.set(FLOORPLAN, await upload(product.url, token, floorplan));
      // its prebuild would otherwise still be writing when the floor plan's cold open clears the cache
      await waitForPrewarm(product.dataDir, [floorplan], 300_000);
    }
    log('scenes prebuilt after upload');

    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: VIEWPORT });
    await ctx.addCookies([{ name: 'ticket', value: token, url: product.url }]);
    await ctx.addInitScript(firstFrameProbe);
    // both pages' code into the HTTP cache before any timing
    for (const u of [`${product.url}/yun/index`, `${baseline.url}/index.html`]) {
      const p = await ctx.newPage();
      await p.goto(u, { waitUntil: 'networkidle' });
      await p.close();
    }

    // ---- 1. first frame
    const firstFrame: Record<string, unknown>[] = [];
    for (const [name] of want('first') ? files : []) {
      if (!ids.has(name)) continue;
      const big = name.startsWith('generated');
      const runs = big ? Math.min(RUNS, 2) : RUNS;
      const timeout = big ? 900_000 : 180_000;
      const cold: number[] = [], warm: number[] = [], warmWhole: number[] = [], base: number[] = [], boot: number[] = [], alone: number[] = [];
      let sceneMB = 0;
      for (let i = 0; i < runs; i++) {
        clearSceneCache(product.dataDir);
        const c = await openOurs(ctx, product.url, ids.get(name)!, timeout);
        if (c.open.scene?.cache !== 'miss') throw new Error(`cold open of ${name} was not a cache miss: ${JSON.stringify(c.open.scene)}, scenes left: ${existsSync(path.join(product.dataDir, "storage", "scenes"))}`);
        cold.push(c.open.frame);
        log(`${name}: ours cold ${r0(c.open.frame)} ms`);
        sceneMB = c.open.scene.bytes / MB;
        const w = await openOurs(ctx, product.url, ids.get(name)!, timeout);
        if (w.open.scene?.cache !== 'hit') throw new Error(`warm open of ${name} was not a cache hit`);
        warm.push(w.open.frame);
        warmWhole.push(w.open.marks['cad:whole-frame'] ?? w.open.frame);
        boot.push(w.open.scene.requestStart);
        base.push((await openBaseline(ctx, baseline.url, name, timeout)).frame);
        log(`${name}: ours warm ${r0(w.open.frame)} ms, dxf-viewer ${r0(base[base.length - 1])} ms`);
        log(`  phases cold ${phases(c.open)} | warm ${phases(w.open)}`);
        const a = await serverAloneCold(product.url, token, product.dataDir, ids.get(name)!);
        alone.push(a.firstByte);
        log(`  server alone (no tab open): first byte ${r0(a.firstByte)}, whole ${r0(a.whole)} ms (${a.server.replace(/;dur=/g, ' ').replace(/\.\d+/g, '')})`);
      }
      const row = {
        file: name,
        sizeMB: r2(statSync(files.get(name)!).size / MB),
        sceneMB: r2(sceneMB),
        oursColdMs: r0(median(cold)),
        oursWarmMs: r0(median(warm)),
        // the first frame may show the first batches only (scenes over SCENE_BATCH_KB): when the whole drawing was drawn
        oursWarmWholeMs: r0(median(warmWhole)),
        // of which: navigation until the scene request starts (index.html's inline script asks for it)
        oursWarmAppBootMs: r0(median(boot)),
        // the same cold build with no tab open: the server's answer to a plain request, first byte
        serverAloneColdMs: r0(median(alone)),
        dxfViewerMs: r0(median(base)),
        coldRatio: r2(median(cold) / median(base)),
        warmRatio: r2(median(warm) / median(base)),
      };
      log(row);
      firstFrame.push(row);
    }
    if (firstFrame.length) results.firstFrame = { target: 'ours ≤ 0.5 × dxf-viewer (ratio = ours / dxf-viewer)', rows: firstFrame };

    // ---- 2. floor plan DWG, second open, with its breakdown
    if (ids.has(FLOORPLAN) && want('floorplan')) {
      clearSceneCache(product.dataDir);
      const cold = await openOurs(ctx, product.url, ids.get(FLOORPLAN)!, 300_000);
      const opens: OursOpen[] = [];
      for (let i = 0; i < Math.max(RUNS, 5); i++) opens.push((await openOurs(ctx, product.url, ids.get(FLOORPLAN)!, 60_000)).open);
      const phase = (f: (o: OursOpen) => number) => r0(median(opens.map(f)));
      const m = (o: OursOpen, k: string) => o.marks[`cad:${k}`];
      results.floorplanDwg = {
        target: 'warm < 300 ms',
        coldMs: r0(cold.open.frame),
        warmMs: phase((o) => o.frame),
        sceneMB: r2((opens[0].scene?.bytes ?? 0) / MB),
        drawCalls: opens[0].drawCalls,
        warmBreakdownMs: {
          'navigation until the scene request (index.html starts it)': phase((o) => o.scene!.requestStart),
          'server: request → first byte (cache read)': phase((o) => o.scene!.responseStart - o.scene!.requestStart),
          // format 4 arrives in batches, read as they come: the first frame needs only the first batch
          'first byte → first batch read (transfer + decode of batch 1)': phase((o) => (m(o, 'first-batch') ?? m(o, 'scene-decoded')) - o.scene!.responseStart),
          'whole scene read, after navigation (with its entity table)': phase((o) => m(o, 'scene-decoded')),
          // the early painter (before the app) has no React step: GL setup follows the decode
          'React: state update, render and commit (0: drawn before the app boots)': phase((o) => (m(o, 'first-batch') === undefined && m(o, 'scene-committed') < m(o, 'gl-uploaded') ? m(o, 'scene-committed') - m(o, 'scene-decoded') : 0)),
          'GL: renderer setup + buffer upload + first render': phase((o) => m(o, 'gl-uploaded') - (m(o, 'first-batch') ?? Math.max(m(o, 'scene-decoded'), m(o, 'scene-committed') < m(o, 'gl-uploaded') ? m(o, 'scene-committed') : 0))),
          'until the next frame (one rAF)': phase((o) => o.frame - m(o, 'gl-uploaded')),
          'whole drawing drawn (its last batch), after navigation': phase((o) => m(o, 'whole-frame')),
          'app booted around the drawing (viewer mounted), after navigation': phase((o) => m(o, 'scene-committed')),
        },
      };
      log(results.floorplanDwg);
    }

    // ---- 3. pan and zoom on the generated drawing and on a real floor plan
    if (want('panzoom')) {
      const seconds = 5;
      const rows: unknown[] = [];
      for (const name of [genName, 'dxf_dxfjs_floorplan.dxf']) {
        if (!ids.has(name)) continue;
        const ours = await openOurs(ctx, product.url, ids.get(name)!, 900_000, true);
        const oursPz = await panZoom(ours.page, '[data-testid=viewer-canvas]', OURS_FRAME_TIMER, seconds);
        await ours.page.close();
        const base = await openBaseline(ctx, baseline.url, name, 900_000, true);
        const basePz = await panZoom(base.page, '#view canvas', BASELINE_FRAME_TIMER, seconds);
        await base.page.close();
        rows.push({ file: name, drawCalls: ours.open.drawCalls, ours: oursPz, dxfViewer: basePz });
        log(rows[rows.length - 1]);
      }
      results.panZoom = { seconds, canvas: canvasSize, note: 'frame work until a 1-pixel readPixels returns, SwiftShader (CPU rasteriser)', rows };
    }
    // ---- 5. first open right after upload, and by a share recipient, against a cold open with nothing else running
    if (want('afterupload')) {
      const bgMb = Number(process.env.BENCH_VIEWER_BG_MB ?? 3);
      const background = [0, 1, 2].map((i) => {
        const f = path.join(tmp, `background-${i}.dxf`);
        generateLargeDxf(f, bgMb * MB, 10 + i);
        return f;
      });
      const target = files.get('dxf_dxfjs_floorplan.dxf') ?? files.get(genName)!;
      // a product of its own, as `npm start` runs it: thumbnails of the uploads are made too (the one above makes none)
      const own = await startProduct({ SCENE_TIMEOUT_MS: '1200000' });
      try {
        const ownToken = await createUser(own);
        results.firstOpenAfterUpload = { note: 'time to first frame (ms after navigation); ratio = scenario / baseline, same run', ...(await firstOpenAfterUpload({ product: own, token: ownToken, browser, tmp, target, background, runs: RUNS })) };
      } finally {
        await own.stop();
      }
      log(results.firstOpenAfterUpload);
    }
    await browser.close();
    browser = null;

    // ---- 4. memory with the large drawing open, one browser per viewer
    if (memMb > 0 && want('memory')) {
      const target = files.has(memName) ? memName : genName;
      if (!ids.has(target)) {
        ids.set(target, await upload(product.url, token, files.get(target)!));
        // its scene is built after the upload; the open below is served from that (or joins a failed build's retry)
        await waitForPrewarm(product.dataDir, [files.get(target)!], 1_200_000).catch((e) => log(e.message));
      }
      // the app from a private copy of the build: other runs on this machine rebuild apps/web/dist, which left the
      // tab blank for the whole wait in some runs (its bundle gone mid-load)
      const webCopy = await snapshotWebApp();
      const oursMem = await memoryOf(async (c) => {
        await serveWebAppFrom(c, product.url, webCopy);
        await c.addCookies([{ name: 'ticket', value: token, url: product.url }]);
        await c.addInitScript(firstFrameProbe);
        return (await openOurs(c, product.url, ids.get(target)!, Number(process.env.BENCH_VIEWER_MEM_TIMEOUT_S ?? 600) * 1000, true)).page;
      });
      rmSync(webCopy, { recursive: true, force: true });
      log('ours memory', oursMem);
      let baseMem: unknown;
      try {
        baseMem = await memoryOf(async (c) => {
          await c.addInitScript(firstFrameProbe);
          return (await openBaseline(c, baseline.url, target, Number(process.env.BENCH_VIEWER_MEM_TIMEOUT_S ?? 600) * 1000, true)).page;
        });
      } catch (e) {
        baseMem = { failed: String((e as Error).message).slice(0, 300) };
      }
      log('dxf-viewer memory', baseMem);
      results.memory = { file: target, sizeMB: r1(statSync(files.get(target)!).size / MB), target: 'ours < 1 GB', ours: oursMem, dxfViewer: baseMem };
    }
  } finally {
    await browser?.close();
    await product.stop();
    await baseline.close();
    rmSync(tmp, { recursive: true, force: true });
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await runViewerBench(), null, 2));
