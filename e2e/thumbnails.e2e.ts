import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeAsciiDxf, type FixtureEntity } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';

const line = (x1: number, y1: number, x2: number, y2: number): FixtureEntity => ({ type: 'LINE', pairs: [[8, '0'], [62, 1], [10, x1], [20, y1], [30, 0], [11, x2], [21, y2], [31, 0]] });

/** Waits until the <img> has really decoded (not just been put in the page): naturalWidth > 0. */
async function loadedWidth(p: Page, selector: string): Promise<number> {
  const handle = await p.waitForFunction(
    (sel) => {
      const img = document.querySelector(sel) as HTMLImageElement | null;
      return img && img.complete && img.naturalWidth > 0 ? img.naturalWidth : 0;
    },
    selector,
    { timeout: 60_000, polling: 250 },
  );
  return (await handle.jsonValue()) as number;
}

describe('thumbnails in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let desktop: BrowserContext;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-thumbs-'));
  const drawing = path.join(work, 'thumb-frame.dxf');
  writeFileSync(drawing, writeAsciiDxf({ entities: [line(0, 0, 300, 0), line(300, 0, 300, 200), line(300, 200, 0, 200), line(0, 200, 0, 0), line(0, 0, 300, 200), line(0, 200, 300, 0)] }));

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    desktop = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'en-US' });
    page = await desktop.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('shows the rendered thumbnail of an uploaded DXF in the desktop grid', async () => {
    try {
      await registerThroughLoginSite(page, product.url, '/yun/index', 'thumbs@example.com', 'Thumbs');

      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', drawing);
      await page.locator('[data-testid="row-thumb-frame.dxf"]').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      // grid view: the thumbnail arrives by the list's own refresh while the job runs, no reload by hand
      await page.locator('.ant-segmented-item:has(.anticon-appstore)').click();
      await page.locator('[data-testid="card-thumb-frame.dxf"]').waitFor();
      const width = await loadedWidth(page, '[data-testid="card-thumb-frame.dxf"] img[data-testid="thumb-thumb-frame.dxf"]');
      expect(width).toBe(400);
      // the type icon gave way to the image
      expect(await page.locator('[data-testid="card-thumb-frame.dxf"] .grid-thumb .anticon').count()).toBe(0);
      await shoot(page, 'thumbnails-grid');
    } catch (e) {
      await shoot(page, 'failed-thumbnails-grid');
      throw e;
    }
  });

  it('shows it in the phone list too', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      locale: 'en-US',
      storageState: await desktop.storageState(),
    });
    const m = await phone.newPage();
    try {
      await m.goto(`${product.url}/webH5/cloud`);
      await m.locator('[data-testid="h5-row-thumb-frame.dxf"]').waitFor({ timeout: 30_000 });
      const width = await loadedWidth(m, '[data-testid="h5-row-thumb-frame.dxf"] img[data-testid="thumb-thumb-frame.dxf"]');
      expect(width).toBe(400);
      // shown within its 40 px box, not at its natural size
      const box = await m.locator('[data-testid="h5-row-thumb-frame.dxf"] img').boundingBox();
      expect(box!.width).toBeLessThanOrEqual(40);
      await shoot(m, 'thumbnails-phone');
    } catch (e) {
      await shoot(m, 'failed-thumbnails-phone');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
