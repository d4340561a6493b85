import { cpSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { root } from './harness.ts';

/** What the browser tests do inside a page: read the viewer's canvas, click drawing points, call the API. */

export const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

/**
 * The viewer's measure and layer tools are premium (issue 22, spec section 6): tests of the viewer itself run with the
 * operator's switch that opens them to every account (payments.e2e.ts tests the gate).
 */
export const VIEWER_TOOLS_FOR_ALL = { RIGHTS_OPEN_TO_ALL: 'viewerTools' };

/** Two animation frames: whatever the last input changed has been drawn. */
/**
 * Two animation frames, and the drawing drawn sharp at the canvas's size: a viewer that is showing its last frame
 * moved (a slow drawing while it pans or zooms) draws it sharp once the movement has stopped, and a canvas whose box
 * changed (the side panel arrives after the first frame, later on a loaded machine) is drawn again at its new size.
 */
export const settle = (page: Page) =>
  page.evaluate(() => new Promise((r) => {
    const drawn = () => {
      const v = (window as any).__cadViewer;
      if (v?.sharp?.() === false) return false;
      const c = v?.canvas as HTMLCanvasElement | undefined;
      const dpr = window.devicePixelRatio || 1;
      return !c || (c.width === Math.round(c.clientWidth * dpr) && c.height === Math.round(c.clientHeight * dpr));
    };
    const check = () => requestAnimationFrame(() => requestAnimationFrame(() => (drawn() ? r(undefined) : setTimeout(check, 50))));
    check();
  }));

/** How far the page is wider than a 375 px phone (a mobile layout viewport grows to fit wide content, so innerWidth is no measure). */
export const phoneOverflow = (page: Page) => page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - 375);

export type PixelKind = 'red' | 'green' | 'blue' | 'ink' | 'white' | 'added';

/**
 * Pixels of the viewer's WebGL canvas matching a colour test (its buffer is preserved, so it can be read back). A 1 px
 * line falls across two device pixels at half strength, so red, green and blue count from half intensity; 'ink' is
 * anything off the dark background, 'added' the compare overlay's green (#52c41a).
 */
export async function countViewerPixels(page: Page, kind: PixelKind): Promise<number> {
  return (await scanViewer(page, kind, false)) as number;
}

/** Where those pixels are: [x, y] in CSS pixels from the canvas's top left (pixel centres). */
export async function viewerPixels(page: Page, kind: PixelKind): Promise<[number, number][]> {
  return (await scanViewer(page, kind, true)) as [number, number][];
}

function scanViewer(page: Page, kind: PixelKind, list: boolean): Promise<number | [number, number][]> {
  return page.evaluate(([k, list]) => {
    const c = (window as any).__cadViewer.canvas as HTMLCanvasElement;
    const tmp = document.createElement('canvas');
    tmp.width = c.width;
    tmp.height = c.height;
    const g = tmp.getContext('2d')!;
    g.drawImage(c, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const dpr = c.width / c.clientWidth;
    let n = 0;
    const at: [number, number][] = [];
    for (let i = 0; i < d.length; i += 4) {
      const r = d[i], gg = d[i + 1], b = d[i + 2];
      const hit =
        k === 'red' ? r > 110 && gg < 70 && b < 70
        : k === 'green' ? gg > 110 && r < 70 && b < 70
        : k === 'blue' ? b > 110 && r < 70 && gg < 70
        : k === 'white' ? r > 250 && gg > 250 && b > 250
        : k === 'added' ? gg > 150 && gg > r * 1.8 && gg > b * 2.5
        : Math.abs(r - 33) + Math.abs(gg - 40) + Math.abs(b - 48) > 60;
      if (!hit) continue;
      n++;
      if (list) {
        const p = i / 4;
        at.push([((p % c.width) + 0.5) / dpr, (Math.floor(p / c.width) + 0.5) / dpr]);
      }
    }
    return list ? at : n;
  }, [kind, list] as const);
}

/** The drawing point (x, y) on the page (CSS pixels). */
export async function screenPoint(page: Page, x: number, y: number) {
  const p = await page.evaluate(([x, y]) => (window as any).__cadViewer.toScreen(x, y), [x, y]);
  const box = (await page.locator('[data-testid=viewer-canvas]').boundingBox())!;
  return { x: box.x + p.x, y: box.y + p.y };
}
/** Click the drawing point (x, y) in the viewer. */
export async function clickDrawingAt(page: Page, x: number, y: number) {
  const p = await screenPoint(page, x, y);
  await page.mouse.click(p.x, p.y);
}
/** Tap the drawing point (x, y) (touch contexts). */
export async function tapDrawingAt(page: Page, x: number, y: number) {
  const p = await screenPoint(page, x, y);
  await page.touchscreen.tap(p.x, p.y);
}

/** A call-style-2 API call with the page's session cookie; throws on a non-success answer. */
export async function postApi<T = any>(page: Page, url: string, data: unknown): Promise<T> {
  const r = await page.request.post(url, { data: { data } });
  const body = await r.json();
  if (body.rtnCode !== '0000000') throw new Error(`${url}: ${JSON.stringify(body)}`);
  return body.bizData as T;
}

/**
 * A private copy of the built web app, taken when it is whole. Several test runs on one machine rebuild apps/web/dist
 * whenever its sources change, and the server only serves the assets that existed when it started: a rebuild in the
 * middle of a test would leave pages blank or answer 404. (CI runs the browser tests one file at a time, where this
 * costs a copy of a few MB.)
 */
export async function snapshotWebApp(): Promise<string> {
  const dist = path.join(root, 'apps/web/dist');
  for (let i = 0; i < 180; i++) {
    try {
      const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
      const refs = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
      if (refs.length && refs.every((r) => existsSync(path.join(dist, r)))) {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-web-'));
        cpSync(dist, dir, { recursive: true });
        if (existsSync(path.join(dir, 'index.html')) && refs.every((r) => existsSync(path.join(dir, r)))) return dir;
      }
    } catch {
      // mid-build: try again
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('apps/web/dist never became whole');
}

const API_PREFIXES = ['/api/', '/cloud/', '/user/', '/global/', '/order/', '/invoice/', '/company/', '/ad/', '/pay/'];
/** The context gets the app's pages and assets from `dir` (see snapshotWebApp); every API call still goes to the real server. */
export async function serveWebAppFrom(ctx: BrowserContext, productUrl: string, dir: string) {
  await ctx.route((u) => u.origin === productUrl && !API_PREFIXES.some((p) => u.pathname.startsWith(p)), async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const { pathname } = new URL(route.request().url());
    if (!path.extname(pathname)) return route.fulfill({ path: path.join(dir, 'index.html'), contentType: 'text/html; charset=utf-8' });
    const file = path.join(dir, decodeURIComponent(pathname));
    return file.startsWith(dir) && existsSync(file) ? route.fulfill({ path: file }) : route.continue();
  });
}

/**
 * Clicks `target` until `shown` appears: antd dialogs zoom in, and a click while one still moves can land beside
 * its target (production builds open faster than the animation settles).
 */
export async function clickUntilShown(target: Locator, shown: Locator, tries = 5): Promise<void> {
  for (let i = 0; ; i++) {
    await target.click();
    try {
      return await shown.waitFor({ timeout: 3000 });
    } catch (e) {
      if (i >= tries - 1) throw e;
    }
  }
}

/** Upload `file` into the signed-in user's drive root through the upload dialog; resolves once its row is listed. */
export async function uploadToDrive(page: Page, productUrl: string, file: string) {
  await page.goto(`${productUrl}/yun/index`);
  await page.click('[data-testid=btn-upload]');
  await page.setInputFiles('[data-testid=file-input]', file);
  await page.locator(`[data-testid="row-${path.basename(file)}"]`).waitFor({ timeout: 60_000 });
  await page.keyboard.press('Escape');
}

/**
 * Polls a file's 3D conversion (checkTaskStatus3D every 500 ms) until it is no longer converting or `timeoutMs`
 * passed, and answers its last status; `start` first asks for the conversion (transformBatch3D) through the API.
 */
export async function waitFor3d(page: Page, productUrl: string, fileId: string, o: { start?: boolean; timeoutMs?: number } = {}) {
  if (o.start) await postApi(page, `${productUrl}/cloud/v5/file/task/transformBatch3D`, { fileIds: [fileId], isTransForm: true });
  const t0 = Date.now();
  let st: any;
  do {
    await new Promise((r) => setTimeout(r, 500));
    st = await postApi(page, `${productUrl}/cloud/v5/file/task/checkTaskStatus3D`, { fileId });
  } while (st.transformStatus === 0 && Date.now() - t0 < (o.timeoutMs ?? 90_000));
  return st;
}
