import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { decodeScene } from '../packages/cad/src/scene/binary.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';
import { clickDrawingAt, countViewerPixels, serveWebAppFrom, settle, snapshotWebApp } from './page-helpers.ts';

/**
 * Scene format 3 in the browser: text whose glyphs repeat is drawn as instances of one glyph mesh (per-character
 * placement, colour and layer), segments and triangles as instances with one colour each. Blue labels of E's
 * (instanced), a red wall, a green solid (a triangle instance pair).
 */
const E_ROW = 'E'.repeat(30);
const dxf = writeAsciiDxf({
  layers: ['0', 'Labels', 'Walls', 'Fill'],
  entities: [
    ...[0, 1, 2].map((i) => ({ type: 'TEXT', pairs: [[8, 'Labels'], [62, 5], [10, 0], [20, 40 + i * 10], [30, 0], [40, 6], [1, E_ROW]] as [number, string | number][] })),
    { type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] },
    { type: 'SOLID', pairs: [[8, 'Fill'], [62, 3], [10, 110], [20, 0], [11, 140], [21, 0], [12, 110], [22, 30], [13, 140], [23, 30]] },
  ],
});

describe('instanced glyphs and per-primitive colours in the viewer', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-glyphs-'));
  const file = path.join(work, 'labels.dxf');
  writeFileSync(file, dxf);

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    // the app from a private copy: other runs rebuild apps/web/dist meanwhile
    await serveWebAppFrom(ctx, product.url, await snapshotWebApp());
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'glyphs@example.com', 'Gly');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('draws, hides, picks and widens text drawn as glyph instances', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', file);
      await page.locator('[data-testid="row-labels.dxf"]').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await page.click('[data-testid="open-labels.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await settle(page);

      // the scene the browser got: the E is one mesh with 90 instances, nothing of it baked into the line buffer
      const id = new URL(page.url()).pathname.split('/').pop()!;
      const bytes = await page.evaluate(async (fileId) => Array.from(new Uint8Array(await (await fetch(`/cloud/v5/drawing/scene?fileId=${fileId}&layout=Model`)).arrayBuffer())), id);
      const scene = decodeScene(new Uint8Array(bytes));
      expect(scene.meta.glyphs!.map((g) => g[5])).toEqual([90]);
      expect(scene.lineEntities.every((e) => scene.meta.entities[e].type === 'LINE')).toBe(true);

      const blue = await countViewerPixels(page, 'blue');
      expect(blue).toBeGreaterThan(500);
      expect(await countViewerPixels(page, 'red')).toBeGreaterThan(50);
      expect(await countViewerPixels(page, 'green')).toBeGreaterThan(200);
      await shoot(page, 'viewer-glyphs');

      // the Labels layer off: the instances go (the layer texture), the wall and the fill stay
      await page.locator('[data-testid="layer-Labels"]').click();
      await settle(page);
      expect(await countViewerPixels(page, 'blue')).toBe(0);
      expect(await countViewerPixels(page, 'red')).toBeGreaterThan(50);
      expect(await countViewerPixels(page, 'green')).toBeGreaterThan(200);
      await page.locator('[data-testid="layer-Labels"]').click();
      await settle(page);
      expect(await countViewerPixels(page, 'blue')).toBe(blue);

      // lineweight display: segments become quads, glyphs are still drawn
      await page.click('[data-testid=viewer-lineweights]');
      await settle(page);
      expect(await countViewerPixels(page, 'blue')).toBeGreaterThan(500);
      expect(await countViewerPixels(page, 'red')).toBeGreaterThan(50);
      await page.click('[data-testid=viewer-lineweights]');

      // a click on the middle of an E's stroke (where the scene's mesh and instance put it) selects the TEXT
      const [lf] = scene.meta.glyphs![0];
      // the 11th character (instances are in text order; the first one touches the view's left edge)
      const [a, b, c, d, e, f] = scene.glyphInstances.subarray(80, 86);
      const g = scene.glyphLinePositions.subarray(lf * 2, lf * 2 + 4);
      const gx = (g[0] + g[2]) / 2, gy = (g[1] + g[3]) / 2;
      await clickDrawingAt(page, a * gx + c * gy + e + scene.meta.origin[0], b * gx + d * gy + f + scene.meta.origin[1]);
      await page.locator('[data-testid=viewer-props]').getByText('TEXT', { exact: true }).waitFor();
      await page.locator('[data-testid=viewer-props]').getByText('Labels', { exact: true }).waitFor();
      // and a click inside the solid selects it
      await clickDrawingAt(page, 125, 15);
      await page.locator('[data-testid=viewer-props]').getByText('SOLID', { exact: true }).waitFor();
    } catch (e) {
      await shoot(page, 'viewer-glyphs-failed');
      throw e;
    }
  }, 180_000);
});
