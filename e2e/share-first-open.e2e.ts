/**
 * Issue 16 item 14, a share recipient's first open: a link to a shared drawing (/share/{rand}/view/{id}, and the phone's
 * /webH5/share/…/view/{id}) opened in a tab that has extracted the share is drawn as the owner's drawing link is —
 * index.html asks for the scene with the tab's share token before any of the app loads, the early painter draws it,
 * and the viewer takes that canvas and that one request over. Before, the recipient's request waited for the whole
 * app, the share page's route and the viewer to load: 2.04× the owner's cold open in the viewer benchmark.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { isWebGlMessage, launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { countViewerPixels, IPHONE_UA, postApi, serveWebAppFrom, settle, snapshotWebApp } from './page-helpers.ts';

/** a red wall and a green box */
const drawing = Buffer.from(
  writeAsciiDxf({
    layers: ['0', 'Walls', 'Boxes'],
    entities: [
      { type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [370, 100], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
      { type: 'LWPOLYLINE', pairs: [[8, 'Boxes'], [62, 3], [90, 4], [70, 1], [10, 20], [20, 20], [10, 60], [20, 20], [10, 60], [20, 50], [10, 20], [20, 50]] },
    ],
  }),
);

/** Records, when the early painter marks its first frame, whether its canvas is there and the app's viewer is not yet. */
const WATCH_EARLY_FRAME = `new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.name !== 'cad:first-frame') continue;
    window.__early = { canvas: !!document.querySelector('[data-early] canvas'), viewerMounted: !!document.querySelector('[data-testid=viewer]') };
  }
}).observe({ type: 'mark', buffered: true });`;

describe("a share recipient's first open of a drawing", () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let web = '';
  let owner: Page;
  const errors: string[] = [];

  async function newContext(o: Parameters<Browser['newContext']>[0]): Promise<BrowserContext> {
    const ctx = await browser.newContext(o);
    await serveWebAppFrom(ctx, product.url, web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    await ctx.addInitScript(WATCH_EARLY_FRAME);
    return ctx;
  }
  /** A page whose console errors and uncaught exceptions fail the test; the scene requests it sends are listed. */
  async function watched(ctx: BrowserContext) {
    errors.length = 0;
    const p = await ctx.newPage();
    p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    p.on('console', (m) => {
      // a visitor's share header asks "who am I" quietly: 401, logged by the browser, not by the page
      if (m.type() === 'error' && !isWebGlMessage(m.text()) && !m.location().url.endsWith('/user/v5/sysuser/userInfo')) errors.push(`console: ${m.text()} (${m.location().url})`);
    });
    const scenes: string[] = [];
    p.on('request', (r) => {
      if (r.url().includes('/cloud/v5/drawing/scene')) scenes.push(r.url());
    });
    return { p, scenes };
  }

  beforeAll(async () => {
    web = await snapshotWebApp();
    product = await startProduct();
    browser = await launchBrowser();
    owner = await (await newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    await registerThroughLoginSite(owner, product.url, '/yun/index', 'sharer@example.com', 'Sharer');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    if (web) rmSync(web, { recursive: true, force: true });
  });

  async function sharedDrawing() {
    const name = `plan-${Math.random().toString(36).slice(2, 8)}.dxf`;
    const r = await owner.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name, mimeType: 'application/octet-stream', buffer: drawing } } });
    const id = (await r.json()).bizData.id as string;
    const s = await postApi<{ rand: string; code: string; shareId: string; h5Url: string; url: string }>(owner, `${product.url}/cloud/v5/share/create`, { fileIds: [id], validDays: 1 });
    return { id, name, ...s };
  }

  for (const device of ['desktop', 'phone'] as const) {
    it(`${device}: the drawing link of an extracted share draws its first frame before the app, from one scene request with the share's token`, async () => {
      const s = await sharedDrawing();
      const ctx = await newContext(device === 'phone' ? { viewport: { width: 375, height: 740 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 860 } });
      const { p, scenes } = await watched(ctx);
      try {
        // the code entered on the share's page (the phone's address for the phone)
        await p.goto(device === 'phone' ? s.h5Url : s.url);
        await p.locator('[data-testid=share-code-input]').fill(s.code);
        await p.click('[data-testid=share-extract-submit]');
        await p.locator('[data-testid^="share-item-"]').first().waitFor({ timeout: 60_000 });
        const base = new URL(p.url()).pathname.replace(/\/$/, '');
        expect(scenes).toEqual([]);

        // the drawing's link opened in this tab (as a link from elsewhere, or a reload of the viewer, would be)
        await p.goto(`${product.url}${base}/view/${encodeURIComponent(s.id)}`);
        await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
        await settle(p);
        const early = await p.evaluate(() => (window as any).__early as { canvas: boolean; viewerMounted: boolean } | undefined);
        expect(early, 'the early painter drew a frame').toBeTruthy();
        expect(early!.canvas).toBe(true);
        expect(early!.viewerMounted).toBe(false);
        // one request, with the share's token, taken over by the viewer (not asked again)
        expect(scenes).toHaveLength(1);
        expect(new URL(scenes[0]).searchParams.get('shareToken')).toBeTruthy();
        expect(new URL(scenes[0]).searchParams.get('fileId')).toBe(s.id);
        expect(await p.locator('[data-early]').count()).toBe(0);
        expect(await countViewerPixels(p, 'red')).toBeGreaterThan(20);
        expect(await countViewerPixels(p, 'green')).toBeGreaterThan(20);
        expect(errors).toEqual([]);
      } catch (e) {
        await shoot(p, `share-first-open-failed-${device}`);
        throw e;
      } finally {
        await ctx.close();
      }
    }, 180_000);
  }

  it('a tab that has not extracted the share asks for no scene: it is sent to the code form', async () => {
    const s = await sharedDrawing();
    const ctx = await newContext({ viewport: { width: 1280, height: 860 } });
    const { p, scenes } = await watched(ctx);
    try {
      await p.goto(`${s.url.replace(/\/$/, '')}/view/${encodeURIComponent(s.id)}`);
      await p.locator('[data-testid=share-code-input]').waitFor({ timeout: 60_000 });
      expect(scenes).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 120_000);
});
