import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, Page } from 'playwright-core';
import { fixtureImage, writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';
import { countViewerPixels, settle, uploadToDrive, VIEWER_TOOLS_FOR_ALL } from './page-helpers.ts';

/**
 * A DXF whose IMAGE (layer Pics) shows C:\plans\PHOTO.png over 64 × 32 units at the origin, and a second IMAGE
 * naming a picture the drive does not have; the picture is made here: left half red, right half blue.
 */
const shown = fixtureImage({ handle: 'A1', defHandle: 'D1', file: 'C:\\plans\\PHOTO.png', pixels: [64, 32], insert: [0, 0], u: [1, 0], v: [0, 1], layer: 'Pics' });
const absent = fixtureImage({ handle: 'A2', defHandle: 'D2', file: '.\\absent.png', pixels: [10, 10], insert: [80, 0], u: [2, 0], v: [0, 2] });
const dxf = writeAsciiDxf({ layers: ['0', 'Pics'], entities: [shown.entity, absent.entity], objects: [shown.def, absent.def] });
async function photo(): Promise<Buffer> {
  const w = 64, h = 32, px = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) px.set(x < 32 ? [255, 0, 0] : [0, 0, 255], (y * w + x) * 3);
  return sharp(px, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
}

/** The colour of the viewer's canvas at a drawing point. */
async function pixelAt(page: Page, x: number, y: number): Promise<number[]> {
  return page.evaluate(([x, y]) => {
    const v = (window as any).__cadViewer;
    const c = v.canvas as HTMLCanvasElement;
    const p = v.toScreen(x, y);
    const dpr = c.width / c.clientWidth;
    const tmp = document.createElement('canvas');
    tmp.width = c.width;
    tmp.height = c.height;
    const g = tmp.getContext('2d')!;
    g.drawImage(c, 0, 0);
    return [...g.getImageData(Math.round(p.x * dpr), Math.round(p.y * dpr), 1, 1).data.slice(0, 3)];
  }, [x, y]);
}

describe('pictures of IMAGE entities in the viewer', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-images-'));

  beforeAll(async () => {
    writeFileSync(path.join(work, 'photo.png'), await photo());
    writeFileSync(path.join(work, 'site.dxf'), dxf);
    product = await startProduct({ ...VIEWER_TOOLS_FOR_ALL });
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'pictures@example.com', 'Pia');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const upload = (file: string) => uploadToDrive(page, product.url, file);

  it('draws the picture from the drive inside its frame, follows its layer, and lists the one not in the drive', async () => {
    try {
      await upload(path.join(work, 'photo.png'));
      await upload(path.join(work, 'site.dxf'));
      await page.click('[data-testid="open-site.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      // the picture arrives after the first frame: wait for its colours
      await expect.poll(() => countViewerPixels(page, 'red'), { timeout: 30_000 }).toBeGreaterThan(2000);
      expect(await countViewerPixels(page, 'blue')).toBeGreaterThan(2000);
      await shoot(page, 'viewer-image');
      // the left half red, the right half blue, in the right places
      const left = await pixelAt(page, 16, 16), right = await pixelAt(page, 48, 16);
      expect(left[0] > 200 && left[1] < 60 && left[2] < 60, `left ${left}`).toBe(true);
      expect(right[2] > 200 && right[0] < 60 && right[1] < 60, `right ${right}`).toBe(true);
      // nothing coloured inside the frame of the picture that is not in the drive
      const inAbsent = await pixelAt(page, 90, 10);
      expect(Math.max(...inAbsent) - Math.min(...inAbsent), `absent ${inAbsent}`).toBeLessThan(30);

      // the Pics layer off: the picture goes with it
      await page.locator('[data-testid="layer-Pics"]').click();
      await settle(page);
      expect(await countViewerPixels(page, 'red')).toBe(0);
      await page.locator('[data-testid="layer-Pics"]').click();
      await settle(page);
      expect(await countViewerPixels(page, 'red')).toBeGreaterThan(2000);

      await page.click('[data-testid=viewer-btn-info]');
      await expect.poll(() => page.locator('[data-testid=viewer-pictures-missing]').textContent(), { timeout: 10_000 }).toContain('absent.png');
    } catch (e) {
      await shoot(page, 'viewer-image-failed');
      throw e;
    }
  });
});
