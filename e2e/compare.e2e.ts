import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeAsciiDxf, type FixtureEntity } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { countViewerPixels, postApi, settle } from './page-helpers.ts';

const line = (h: string, x0: number, y0: number, x1: number, y1: number, extra: [number, number][] = []): FixtureEntity => ({ type: 'LINE', pairs: [[5, h], [8, 'Walls'], ...extra, [10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]] });
const walls = [line('A1', 0, 0, 200, 0), line('A2', 200, 0, 200, 150), line('A3', 200, 150, 0, 150), line('A4', 0, 150, 0, 0)];
const v1 = writeAsciiDxf({
  layers: ['0', 'Walls', 'Rooms'],
  entities: [...walls, { type: 'CIRCLE', pairs: [[5, 'C1'], [8, 'Rooms'], [10, 50], [20, 50], [30, 0], [40, 20]] }, line('D1', 100, 0, 100, 80)],
});
// V2: the circle erased, the door line moved, a wall recoloured, a filled block added in the top right corner
const v2 = writeAsciiDxf({
  layers: ['0', 'Walls', 'Rooms'],
  entities: [
    walls[0], walls[1], line('A3', 200, 150, 0, 150, [[62, 5]]), walls[3],
    line('D1', 120, 0, 120, 80),
    { type: 'SOLID', pairs: [[5, 'N1'], [8, 'Rooms'], [10, 150], [20, 100], [11, 190], [21, 100], [12, 150], [22, 140], [13, 190], [23, 140]] },
  ],
});


describe('drawing compare in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let compareUrl: string;

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'compare@example.com', 'Cora');
    // V1 uploaded to the drive, V2 as its new version (the versions API), with the session's cookie
    const up = await page.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name: 'plan.dxf', mimeType: 'application/octet-stream', buffer: Buffer.from(v1) } } });
    const fileId = (await up.json()).bizData.id as string;
    const ver = await page.request.post(`${product.url}/cloud/v5/version/upload`, { multipart: { fileId, filedata: { name: 'plan.dxf', mimeType: 'application/octet-stream', buffer: Buffer.from(v2) } } });
    expect((await ver.json()).rtnCode).toBe('0000000');
    const list = (await postApi(page, `${product.url}/cloud/v5/version/history`, { fileId })).list as { versionId: string; version: number }[];
    const a = list.find((v) => v.version === 1)!.versionId, b = list.find((v) => v.version === 2)!.versionId;
    compareUrl = `${product.url}/yun/version/${fileId}/compare?a=${a}&b=${b}`;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('shows the overlay, the legend and the change list; a change zooms the view to it; only A hides what B added', async () => {
    try {
      // from the file's version history: both versions ticked, Compare
      await page.goto(compareUrl.replace(/\/compare\?.*/, ''));
      await page.locator('[data-testid=version-number-2]').waitFor({ timeout: 60_000 });
      for (const box of await page.locator('.ant-table-tbody .ant-checkbox-input').all()) await box.check();
      await page.click('[data-testid=version-compare]');
      await page.waitForURL(compareUrl);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await page.locator('[data-testid=compare-item]').first().waitFor({ timeout: 60_000 });
      await settle(page);
      expect(await countViewerPixels(page, 'added')).toBeGreaterThan(200);
      expect(await page.locator('[data-testid=compare-item]').count()).toBe(4);
      await page.locator('[data-testid=compare-total]').getByText('4 changes').waitFor();
      expect(await page.locator('[data-testid=compare-count-added] b').textContent()).toBe('1');
      expect(await page.locator('[data-testid=compare-count-removed] b').textContent()).toBe('1');
      expect(await page.locator('[data-testid=compare-count-modified] b').textContent()).toBe('2');
      expect(await page.locator('[data-testid=compare-count-unchanged] b').textContent()).toBe('3');
      await shoot(page, 'compare-desktop');

      // the removed circle (centre 50,50, radius 20): the view zooms in on it
      const before = await page.evaluate(() => (window as any).__cadViewer.ppu());
      await page.locator('[data-testid=compare-item]').filter({ hasText: 'CIRCLE' }).click();
      await settle(page);
      const c = await page.evaluate(() => ({ ...(window as any).__cadViewer.center(), ppu: (window as any).__cadViewer.ppu() }));
      expect(c.ppu).toBeGreaterThan(before * 2);
      expect(Math.abs(c.x - 50)).toBeLessThan(2);
      expect(Math.abs(c.y - 50)).toBeLessThan(2);
      // and outlines it (the viewer's selection box, blue, on its overlay canvas, drawn with the frame after the
      // selection's React update: on a busy machine that can come after settle's two frames)
      const blueOnOverlay = () => {
        const o = document.querySelector('.viewer-overlay') as HTMLCanvasElement;
        const d = o.getContext('2d')!.getImageData(0, 0, o.width, o.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i + 2] > 200 && d[i] < 80 && d[i + 3] > 100) n++;
        return n;
      };
      await page.waitForFunction(`(${blueOnOverlay.toString()})() > 100`, undefined, { timeout: 5000 }).catch(() => undefined);
      expect(await page.evaluate(blueOnOverlay)).toBeGreaterThan(100);

      // only V1: the added block (green) is not drawn; the overlay again: it is
      await page.click('[data-testid=viewer-fit]');
      await page.locator('[data-testid=compare-show] .ant-segmented-item').nth(2).click();
      await settle(page);
      expect(await countViewerPixels(page, 'added')).toBe(0);
      await page.locator('[data-testid=compare-show] .ant-segmented-item').nth(0).click();
      await settle(page);
      expect(await countViewerPixels(page, 'added')).toBeGreaterThan(200);
    } catch (e) {
      await shoot(page, 'compare-desktop-failed');
      throw e;
    }
  });

  it('works at phone width: the list in a bottom drawer, a tap zooms and closes it', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, storageState: await ctx.storageState() });
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const p = await phone.newPage();
    try {
      await p.goto(compareUrl);
      await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await settle(p);
      expect(await countViewerPixels(p, 'added')).toBeGreaterThan(50);
      // nothing covers the drawing until the list is asked for
      expect(await p.locator('[data-testid=compare-item]').count()).toBe(0);
      await p.click('[data-testid=compare-btn-list]');
      await p.locator('[data-testid=compare-item]').first().waitFor();
      expect(await p.locator('[data-testid=compare-item]').count()).toBe(4);
      const box = (await p.locator('[data-testid=compare-list]').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      // a bottom drawer: the top of the drawing stays in view
      expect(box.y).toBeGreaterThan(740 / 3);
      await shoot(p, 'compare-phone');
      const before = await p.evaluate(() => (window as any).__cadViewer.ppu());
      await p.locator('[data-testid=compare-item]').filter({ hasText: 'SOLID' }).tap();
      await p.locator('[data-testid=compare-item]').first().waitFor({ state: 'hidden' });
      await settle(p);
      const c = await p.evaluate(() => ({ ...(window as any).__cadViewer.center(), ppu: (window as any).__cadViewer.ppu() }));
      expect(c.ppu).toBeGreaterThan(before);
      expect(Math.abs(c.x - 170)).toBeLessThan(3);
      expect(Math.abs(c.y - 120)).toBeLessThan(3);
    } catch (e) {
      await shoot(p, 'compare-phone-failed');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
