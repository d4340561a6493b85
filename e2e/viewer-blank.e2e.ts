import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';
import { phoneOverflow, settle, uploadToDrive, VIEWER_TOOLS_FOR_ALL } from './page-helpers.ts';

/** Model space of only 3D solids whose ACIS data cannot be read: nothing can be drawn. */
const solidsOnly = writeAsciiDxf({
  entities: [1, 2, 3].map((i) => ({ type: '3DSOLID', pairs: [[5, `A${i}`], [8, '0'], [100, 'AcDbModelerGeometry'], [70, 1], [1, 'not ACIS']] })),
});
/** A square on a layer that is off in the file (negative colour): drawn only once the layer is switched on. */
const layerOff = writeAsciiDxf({
  layers: ['0', 'Walls'],
  layerColors: { Walls: -1 },
  entities: [[0, 0, 100, 0], [100, 0, 100, 100], [100, 100, 0, 100], [0, 100, 0, 0]].map(([x0, y0, x1, y1]) => ({ type: 'LINE', pairs: [[8, 'Walls'], [10, x0], [20, y0], [30, 0], [11, x1], [21, y1], [31, 0]] })),
});

/** One line on a layer that is on. */
const notes = writeAsciiDxf({ layers: ['0', 'Notes'], entities: [{ type: 'LINE', pairs: [[8, 'Notes'], [10, 0], [20, 0], [30, 0], [11, 50], [21, 50], [31, 0]] }] });

const blank = (page: Page) => page.locator('[data-testid=viewer-blank]');

describe('a layout that draws nothing says why', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-blank-'));

  beforeAll(async () => {
    writeFileSync(path.join(work, 'solids.dxf'), solidsOnly);
    writeFileSync(path.join(work, 'walls.dxf'), layerOff);
    writeFileSync(path.join(work, 'notes.dxf'), notes);
    product = await startProduct({ ...VIEWER_TOOLS_FOR_ALL });
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', localStorage.getItem('cadcloud.lang') ?? 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'blank@example.com', 'Blanche');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const open = async (name: string) => {
    await uploadToDrive(page, product.url, path.join(work, name));
    await page.click(`[data-testid="open-${name}"]`);
    await page.waitForURL(/\/yun\/view\//);
    await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
    await settle(page);
  };

  it('only unreadable 3D solids: says so, with what was not drawn, in the chosen language too', async () => {
    try {
      await open('solids.dxf');
      await blank(page).waitFor({ timeout: 30_000 });
      await shoot(page, 'viewer-blank-solids');
      expect(await blank(page).getAttribute('data-reason')).toBe('viewer.blank.solids');
      expect(await blank(page).textContent()).toBe('This layout only holds 3D solids, which could not be read: 3DSOLID ×3');
      // the same in German after a reload
      await page.evaluate(() => localStorage.setItem('cadcloud.lang', 'de'));
      await page.reload();
      await blank(page).waitFor({ timeout: 30_000 });
      expect(await blank(page).textContent()).toContain('3D-Körper');
      await page.evaluate(() => localStorage.setItem('cadcloud.lang', 'en'));
    } catch (e) {
      await shoot(page, 'viewer-blank-solids-failed');
      throw e;
    }
  });

  it('content only on layers that are off: says so until a layer is switched on, at phone width too', async () => {
    try {
      await open('walls.dxf');
      await blank(page).waitFor({ timeout: 30_000 });
      expect(await blank(page).getAttribute('data-reason')).toBe('viewer.blank.layersOff');
      expect(await blank(page).textContent()).toBe('All layers are off or frozen: switch them on in the layer panel');
      await page.setViewportSize({ width: 375, height: 740 });
      await settle(page);
      await shoot(page, 'viewer-blank-layers-phone');
      expect(await blank(page).isVisible()).toBe(true);
      expect(await phoneOverflow(page)).toBeLessThanOrEqual(1);
      await page.setViewportSize({ width: 1280, height: 860 });
      // a drawing that shows its content, until its only layer is switched off here (the layer panel is open on a
      // desktop); on again, the message goes
      await open('notes.dxf');
      expect(await blank(page).count()).toBe(0);
      await page.locator('[data-testid="layer-Notes"]').click();
      await blank(page).waitFor({ timeout: 10_000 });
      expect(await blank(page).getAttribute('data-reason')).toBe('viewer.blank.layersOff');
      await page.locator('[data-testid="layer-Notes"]').click();
      await expect.poll(() => blank(page).count(), { timeout: 10_000 }).toBe(0);
    } catch (e) {
      await shoot(page, 'viewer-blank-layers-failed');
      throw e;
    }
  });
});
