import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';
import { settle, uploadToDrive, VIEWER_TOOLS_FOR_ALL } from './page-helpers.ts';

/**
 * Issue 15 item 13: layers off or frozen in the file start off in the viewer, and its user may switch them on (nothing
 * is saved); "all on" shows them too; no nameless layer is listed. A 100 × 100 drawing: a blue line at y 50 on layer
 * Shown, a red one at y 30 on OffInFile (colour negative), a green one at y 70 on FrozenInFile (70 = 1), a frozen
 * INSERT whose child on layer Shown draws a blue line at y 85 (freezing the INSERT hides it), and a line on a layer
 * with no name (drawn on layer 0).
 */
const dxf = writeAsciiDxf({
  layers: ['0', 'Shown', 'OffInFile', 'FrozenInFile', ''],
  layerColors: { OffInFile: -7 },
  layerFlags: { FrozenInFile: 1 },
  blocks: [{ name: 'B', entities: [{ type: 'LINE', pairs: [[8, 'Shown'], [62, 5], [10, 0], [20, 85], [11, 100], [21, 85]] }] }],
  entities: [
    { type: 'LINE', pairs: [[8, 'Shown'], [62, 5], [10, 0], [20, 50], [11, 100], [21, 50]] },
    { type: 'LINE', pairs: [[8, 'OffInFile'], [62, 1], [10, 0], [20, 30], [11, 100], [21, 30]] },
    { type: 'LINE', pairs: [[8, 'FrozenInFile'], [62, 3], [10, 0], [20, 70], [11, 100], [21, 70]] },
    { type: 'INSERT', pairs: [[8, 'FrozenInFile'], [2, 'B'], [10, 0], [20, 0]] },
    { type: 'LINE', pairs: [[8, ''], [62, 5], [10, 0], [20, 0], [11, 100], [21, 100]] },
  ],
});

type Rgb = [number, number, number];
const isRed = ([r, g, b]: Rgb) => r > 110 && g < 70 && b < 70;
const isGreen = ([r, g, b]: Rgb) => g > 110 && r < 70 && b < 70;
const isBlue = ([r, g, b]: Rgb) => b > 110 && r < 70 && g < 70;

/** The viewer canvas's pixels in the drawing rectangle x0…x1 × y0…y1 (as the wipeout test reads them). */
async function pixelsIn(page: Page, x0: number, y0: number, x1: number, y1: number): Promise<Rgb[]> {
  return page.evaluate(([x0, y0, x1, y1]) => {
    const v = (window as any).__cadViewer;
    const c = v.canvas as HTMLCanvasElement;
    const dpr = c.width / c.clientWidth;
    const a = v.toScreen(x0, y0), b = v.toScreen(x1, y1);
    const left = Math.round(Math.min(a.x, b.x) * dpr), top = Math.round(Math.min(a.y, b.y) * dpr);
    const w = Math.max(1, Math.round(Math.abs(b.x - a.x) * dpr)), h = Math.max(1, Math.round(Math.abs(b.y - a.y) * dpr));
    const g = Object.assign(document.createElement('canvas'), { width: c.width, height: c.height }).getContext('2d')!;
    g.drawImage(c, 0, 0);
    const d = g.getImageData(left, top, w, h).data;
    const out: [number, number, number][] = [];
    for (let i = 0; i < d.length; i += 4) out.push([d[i], d[i + 1], d[i + 2]]);
    return out;
  }, [x0, y0, x1, y1]);
}
/** pixels of colour `test` on the horizontal line at `y` (between x 20 and 40, where nothing else crosses) */
const on = async (page: Page, y: number, test: (p: Rgb) => boolean) => (await pixelsIn(page, 20, y - 1, 40, y + 1)).filter(test).length;

describe('layers in the viewer', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-layers-'));

  beforeAll(async () => {
    writeFileSync(path.join(work, 'layers.dxf'), dxf);
    product = await startProduct({ ...VIEWER_TOOLS_FOR_ALL });
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'layers@example.com', 'Lena');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('starts with the file’s off and frozen layers off, lets the user switch them on, and “all on” shows every layer', async () => {
    try {
      await uploadToDrive(page, product.url, path.join(work, 'layers.dxf'));
      await page.click('[data-testid="open-layers.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await settle(page);
      const off = page.locator('[data-testid="layer-OffInFile"]'), frozen = page.locator('[data-testid="layer-FrozenInFile"]');
      // as the file says, and not greyed out
      expect(await off.isChecked()).toBe(false);
      expect(await off.isDisabled()).toBe(false);
      expect(await frozen.isChecked()).toBe(false);
      expect(await frozen.isDisabled()).toBe(false);
      expect(await on(page, 50, isBlue)).toBeGreaterThan(5);
      expect(await on(page, 30, isRed)).toBe(0);
      expect(await on(page, 70, isGreen)).toBe(0);
      // the child of the frozen INSERT is hidden with it, though its own layer is on
      expect(await on(page, 85, isBlue)).toBe(0);
      // no nameless entry (its line is on layer 0)
      expect(await page.locator('[data-testid="layer-"]').count()).toBe(0);

      await off.click();
      await settle(page);
      expect(await on(page, 30, isRed)).toBeGreaterThan(5);
      await frozen.click();
      await settle(page);
      expect(await on(page, 70, isGreen)).toBeGreaterThan(5);
      expect(await on(page, 85, isBlue)).toBeGreaterThan(5);
      await shoot(page, 'viewer-layers-thawed');

      await page.getByRole('button', { name: 'All off' }).click();
      await settle(page);
      expect(await on(page, 50, isBlue)).toBe(0);
      await page.getByRole('button', { name: 'All on' }).click();
      await settle(page);
      expect(await on(page, 50, isBlue)).toBeGreaterThan(5);
      expect(await on(page, 30, isRed)).toBeGreaterThan(5);
      expect(await on(page, 70, isGreen)).toBeGreaterThan(5);
    } catch (e) {
      await shoot(page, 'viewer-layers-failed');
      throw e;
    }
  }, 180_000);
});
