import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { blockFixtureDxf } from '../packages/cad/src/testing/block-fixture.ts';
import { decodeScene, encodeScene } from '../packages/cad/src/scene/binary.ts';
import { parseDxf } from '../packages/cad/src/dxf/reader.ts';
import { flattenLayout } from '../packages/cad/src/geometry/layout.ts';
import { compileScene } from '../packages/cad/src/scene/compile.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';
import { clickDrawingAt, countViewerPixels, serveWebAppFrom, settle, snapshotWebApp, VIEWER_TOOLS_FOR_ALL } from './page-helpers.ts';

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
  const blocksFile = path.join(work, 'blocks.dxf');
  writeFileSync(blocksFile, blockFixtureDxf(1000));

  beforeAll(async () => {
    product = await startProduct({ ...VIEWER_TOOLS_FOR_ALL });
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

  /** The viewer canvas as raw RGBA (its drawing buffer is preserved). */
  async function canvasPixels() {
    await settle(page);
    const url: string = await page.evaluate(() => ((window as any).__cadViewer.canvas as HTMLCanvasElement).toDataURL('image/png'));
    return sharp(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).raw().toBuffer({ resolveWithObject: true });
  }
  /** Pixels whose colour differs (any channel by more than 48) and pixels off the background, of two captures. */
  function pixelDiff(a: { data: Buffer; info: { channels: number } }, b: { data: Buffer }) {
    let differ = 0, ink = 0;
    const c = a.info.channels;
    for (let i = 0; i < a.data.length; i += c) {
      if (Math.abs(a.data[i] - 33) + Math.abs(a.data[i + 1] - 40) + Math.abs(a.data[i + 2] - 48) > 60) ink++;
      if (Math.abs(a.data[i] - b.data[i]) > 48 || Math.abs(a.data[i + 1] - b.data[i + 1]) > 48 || Math.abs(a.data[i + 2] - b.data[i + 2]) > 48) differ++;
    }
    return { differ, ink };
  }

  it('draws a block inserted 1,000 times as instances, pixel for pixel as the baked scene, and picks inside them', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', blocksFile);
      await page.locator('[data-testid="row-blocks.dxf"]').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await page.click('[data-testid="open-blocks.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 90_000 });
      const viewUrl = page.url();
      const id = new URL(viewUrl).pathname.split('/').pop()!;
      // the server's scene, the block instanced: of the flattener's 1,023 placements, 1,018 (the compiler bakes a mesh
      // that saves less than 1 KB; with exact curves, which are records of their own, a mesh holds less)
      const bytes = await page.evaluate(async (fileId) => Array.from(new Uint8Array(await (await fetch(`/cloud/v5/drawing/scene?fileId=${fileId}&layout=Model`)).arrayBuffer())), id);
      const served = decodeScene(new Uint8Array(bytes));
      expect(served.blockInstanceEntities.length).toBe(1018);
      expect(served.meta.blocks!.length).toBeGreaterThan(10);

      // the same drawing compiled here with block instancing on and forced off, served to the viewer in turn
      const d = parseDxf(blockFixtureDxf(1000));
      // as the server flattens: exact curves too, so curve records, pictures' units and block meshes share the frame
      const flat = flattenLayout(d, 'Model', { curves: true, blockInstances: true })!;
      const on = compileScene(d, flat, { layout: 'Model', layouts: ['Model'] });
      const variants = { on: encodeScene(on), off: encodeScene(compileScene(d, flat, { layout: 'Model', layouts: ['Model'], blockInstances: false })) };
      let serve: 'on' | 'off' = 'on';
      await page.route(/\/cloud\/v5\/drawing\/scene\?/, (route) => route.fulfill({ status: 200, contentType: 'application/vnd.cadcloud.scene', body: Buffer.from(variants[serve]) }));
      const captures = async (v: 'on' | 'off') => {
        serve = v;
        await page.goto(viewUrl);
        await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
        // the side panel comes after the first frame and narrows the canvas: capture once it is there
        await page.locator('[data-testid="layer-L2"]').waitFor();
        const plain = await canvasPixels();
        const drawCalls: number = await page.evaluate(() => (window as any).__cadViewer.drawCalls());
        // L2 off: its inserts' layer-0 children go, the arc on B and everything on L1 stays
        await page.locator('[data-testid="layer-L2"]').click();
        const layerOff = await canvasPixels();
        await page.locator('[data-testid="layer-L2"]').click();
        await page.click('[data-testid=viewer-lineweights]');
        const wide = await canvasPixels();
        await page.click('[data-testid=viewer-lineweights]');
        return { plain, layerOff, wide, drawCalls };
      };
      const a = await captures('on');
      await shoot(page, 'viewer-blocks-instanced');
      const b = await captures('off');
      for (const k of ['plain', 'layerOff', 'wide'] as const) {
        expect([a[k].info.width, a[k].info.height]).toEqual([b[k].info.width, b[k].info.height]);
        const { differ, ink } = pixelDiff(a[k], b[k]);
        console.log(`blocks ${k}: ${differ} of ${ink} drawn pixels differ (instanced vs baked); draw calls ${a.drawCalls} vs ${b.drawCalls}`);
        expect(ink).toBeGreaterThan(20_000);
        // measured 0.1 % at the fit view (overlapping instances paint in mesh order, the baked scene in layer order)
        expect(differ).toBeLessThan(ink * 0.005);
      }
      // the layer really went: fewer drawn pixels
      expect(pixelDiff(a.layerOff, a.layerOff).ink).toBeLessThan(pixelDiff(a.plain, a.plain).ink * 0.8);

      // a click on an instance's segment (instanced scene) selects its INSERT
      serve = 'on';
      await page.goto(viewUrl);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await page.locator('[data-testid="layer-L2"]').waitFor();
      await settle(page);
      const [lf, , , , first] = on.meta.blocks![0];
      const I = on.blockInstances, L = on.blockLinePositions;
      const mx = (L[lf * 2] + L[lf * 2 + 2]) / 2, my = (L[lf * 2 + 1] + L[lf * 2 + 3]) / 2;
      const x = I[first * 8] * mx + I[first * 8 + 2] * my + I[first * 8 + 4] + on.meta.origin[0];
      const y = I[first * 8 + 1] * mx + I[first * 8 + 3] * my + I[first * 8 + 5] + on.meta.origin[1];
      await clickDrawingAt(page, x, y);
      await page.locator('[data-testid=viewer-props]').getByText('INSERT', { exact: true }).waitFor();
      await page.unroute(/\/cloud\/v5\/drawing\/scene\?/);
    } catch (e) {
      await shoot(page, 'viewer-blocks-failed');
      throw e;
    }
  }, 240_000);
});
