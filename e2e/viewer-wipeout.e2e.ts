import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf, type FixtureEntity } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';
import { settle, uploadToDrive, VIEWER_TOOLS_FOR_ALL } from './page-helpers.ts';

/**
 * A WIPEOUT (layer Mask) over the square 40…60 × 40…60 of a 100 × 100 drawing. Before it, in red: a line across the
 * drawing at y 50 (lineweight 0.5 mm), a circle inside the square and a line of 80 E's through it at y 44 (instanced
 * glyphs); after it, in green: a line down the drawing at x 50 and a circle inside the square. The wipeout hides the
 * red inside its square and nothing green: lines, curves, glyphs, each drawn in a batch of its own kind (the scene is
 * sorted by layer and kind, not in draw order).
 */
const wipeout: FixtureEntity = {
  type: 'WIPEOUT',
  pairs: [[8, 'Mask'], [100, 'AcDbWipeout'], [10, 40], [20, 40], [30, 0], [11, 20], [21, 0], [31, 0], [12, 0], [22, 20], [32, 0], [13, 1], [23, 1], [280, 1], [71, 1], [91, 2], [14, -0.5], [24, -0.5], [14, 0.5], [24, 0.5]],
};
// a row of 30 small blue blocks along the top (y 95–98, away from what is checked): instanced block meshes, whose pass
// binds integer textures that the wipeout pass once found on its own texture unit (issue 15 item 14: every frame then
// logged "glDrawArrays: Mismatch between texture format and sampler type", which the harness now fails on)
const tick: FixtureEntity[] = Array.from({ length: 10 }, (_, k) => ({ type: 'LINE', pairs: [[8, '0'], [10, k * 0.2], [20, 0], [11, k * 0.2 + 0.1], [21, 3]] }));
const ticks: FixtureEntity[] = Array.from({ length: 30 }, (_, i) => ({ type: 'INSERT', pairs: [[8, '0'], [62, 5], [2, 'TICK'], [10, 2 + i * 3.2], [20, 95]] }));
const dxf = writeAsciiDxf({
  layers: ['0', 'Mask'],
  blocks: [{ name: 'TICK', entities: tick }],
  entities: [
    ...ticks,
    { type: 'LINE', pairs: [[8, '0'], [62, 1], [370, 50], [10, 0], [20, 50], [11, 100], [21, 50]] },
    { type: 'CIRCLE', pairs: [[8, '0'], [62, 1], [10, 50], [20, 50], [40, 6]] },
    { type: 'TEXT', pairs: [[8, '0'], [62, 1], [10, 20], [20, 44], [40, 1], [1, 'E'.repeat(80)]] },
    wipeout,
    { type: 'LINE', pairs: [[8, '0'], [62, 3], [10, 50], [20, 0], [11, 50], [21, 100]] },
    { type: 'CIRCLE', pairs: [[8, '0'], [62, 3], [10, 50], [20, 50], [40, 8]] },
  ],
});

type Rgb = [number, number, number];
const isRed = ([r, g, b]: Rgb) => r > 110 && g < 70 && b < 70;
const isGreen = ([r, g, b]: Rgb) => g > 110 && r < 70 && b < 70;

/** The viewer canvas's pixels in the drawing rectangle x0…x1 × y0…y1 (device pixels, read back: the buffer is preserved). */
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

const count = (px: Rgb[], test: (p: Rgb) => boolean) => px.filter(test).length;

/** What the wipeout must do in the frame on screen now. */
async function expectMasked(page: Page, what: string) {
  // inside the square (a unit in from its edges: antialiasing), no red at all; the background around the crossing
  const inside = await pixelsIn(page, 41, 41, 59, 59);
  expect(count(inside, isRed), `${what}: red inside the wipeout`).toBe(0);
  const bg = await pixelsIn(page, 44, 49, 46, 51);
  expect(bg.every(([r, g, b]) => Math.abs(r - 33) + Math.abs(g - 40) + Math.abs(b - 48) < 30), `${what}: background where the red line passes under the wipeout ${JSON.stringify(bg.slice(0, 3))}`).toBe(true);
  // outside it, the red line, circle-free, and the E's are there
  expect(count(await pixelsIn(page, 15, 48, 25, 52), isRed), `${what}: red line left of the wipeout`).toBeGreaterThan(5);
  expect(count(await pixelsIn(page, 75, 48, 85, 52), isRed), `${what}: red line right of the wipeout`).toBeGreaterThan(5);
  expect(count(await pixelsIn(page, 21, 43.5, 38, 45.5), isRed), `${what}: E's left of the wipeout`).toBeGreaterThan(20);
  // the green line and circle, drawn after the wipeout, over it
  expect(count(await pixelsIn(page, 49, 44, 51, 46), isGreen), `${what}: green line inside the wipeout`).toBeGreaterThan(0);
  expect(count(await pixelsIn(page, 49, 54, 51, 56), isGreen), `${what}: green line inside the wipeout`).toBeGreaterThan(0);
  expect(count(await pixelsIn(page, 57, 49, 59, 51), isGreen), `${what}: green circle inside the wipeout`).toBeGreaterThan(0);
}

describe('a WIPEOUT in the viewer', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-wipeout-'));

  beforeAll(async () => {
    writeFileSync(path.join(work, 'masked.dxf'), dxf);
    product = await startProduct({ ...VIEWER_TOOLS_FOR_ALL });
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'wipeout@example.com', 'Wendy');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  it('hides what is drawn before it and nothing drawn after it, with lineweights too, and follows its layer', async () => {
    try {
      await uploadToDrive(page, product.url, path.join(work, 'masked.dxf'));
      await page.click('[data-testid="open-masked.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await settle(page);
      await shoot(page, 'viewer-wipeout');
      await expectMasked(page, 'thin lines');

      // the lineweight display draws segments and curves as quads: masked the same
      await page.click('[data-testid=viewer-lineweights]');
      await settle(page);
      await shoot(page, 'viewer-wipeout-lineweights');
      await expectMasked(page, 'lineweights');
      await page.click('[data-testid=viewer-lineweights]');
      await settle(page);

      // the wipeout's layer off: it hides nothing
      await page.locator('[data-testid="layer-Mask"]').click();
      await settle(page);
      expect(count(await pixelsIn(page, 41, 49, 47, 51), isRed)).toBeGreaterThan(5);
      await page.locator('[data-testid="layer-Mask"]').click();
      await settle(page);
      await expectMasked(page, 'layer on again');
    } catch (e) {
      await shoot(page, 'viewer-wipeout-failed');
      throw e;
    }
  });

  it('masks in the early frame too (a drawing link draws before the app boots)', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, storageState: await page.context().storageState() });
    // the early frame's centre rows, when it is marked: the drawing is fitted around its centre, which is the wipeout's
    await ctx.addInitScript(() => {
      localStorage.setItem('cadcloud.lang', 'en');
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          if (e.name !== 'cad:first-frame') continue;
          const c = document.querySelector('[data-early] canvas') as HTMLCanvasElement | null;
          if (!c) continue;
          const g = Object.assign(document.createElement('canvas'), { width: c.width, height: c.height }).getContext('2d')!;
          g.drawImage(c, 0, 0);
          const cy = Math.floor(c.height / 2);
          const d = g.getImageData(0, cy - 3, c.width, 7).data;
          const red: number[] = [], green: number[] = [];
          for (let i = 0; i < d.length; i += 4) {
            const x = (i / 4) % c.width;
            if (d[i] > 110 && d[i + 1] < 70 && d[i + 2] < 70) red.push(x);
            if (d[i + 1] > 110 && d[i] < 70 && d[i + 2] < 70) green.push(x);
          }
          (window as any).__early = { width: c.width, red, green };
        }
      }).observe({ type: 'mark', buffered: true });
    });
    const p = await ctx.newPage();
    try {
      await p.goto(page.url());
      await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      const early = await p.evaluate(() => (window as any).__early as { width: number; red: number[]; green: number[] });
      expect(early, 'the early painter drew a frame').toBeTruthy();
      // the red line spans the drawing (0…100); the wipeout is its middle fifth (40…60): no red there but the gap's edges
      const l = Math.min(...early.red), r = Math.max(...early.red);
      expect(r - l).toBeGreaterThan(200);
      const gap = early.red.filter((x) => x > l + (r - l) * 0.41 && x < l + (r - l) * 0.59);
      expect(gap, 'red inside the wipeout in the early frame').toEqual([]);
      expect(early.green.some((x) => Math.abs(x - (l + r) / 2) < 4), 'the green line over the wipeout').toBe(true);
      // the side panel comes after the first frame and narrows the canvas, which is then fitted and drawn again
      await p.locator('[data-testid="layer-Mask"]').waitFor();
      await settle(p);
      await expectMasked(p, 'after the early frame');
    } catch (e) {
      await shoot(p, 'viewer-wipeout-early-failed');
      throw e;
    } finally {
      await ctx.close();
    }
  }, 120_000);

  // issue 15 item 2: a white (ACI 255) solid hatch drawn after a red line hides it, as in the plot; the viewer draws fills
  // before lines, so the fill masks like a wipeout (packages/cad geometry/flatten.ts whiteMask) and shows white here
  it('hides what lies under a white solid hatch drawn after it, and shows the hatch white', async () => {
    const square: [number, number][] = [[40, 40], [60, 40], [60, 60], [40, 60]];
    const white: FixtureEntity = {
      type: 'HATCH',
      pairs: [[8, '0'], [62, 255], [100, 'AcDbHatch'], [10, 0], [20, 0], [30, 0], [210, 0], [220, 0], [230, 1], [2, 'SOLID'], [70, 1], [71, 0], [91, 1], [92, 3], [72, 0], [73, 1], [93, 4],
        ...square.flatMap(([x, y]) => [[10, x], [20, y]] as [number, number][]), [97, 0], [75, 0], [76, 1], [98, 0]],
    };
    writeFileSync(path.join(work, 'whitefill.dxf'), writeAsciiDxf({
      entities: [
        { type: 'LINE', pairs: [[8, '0'], [62, 1], [10, 0], [20, 50], [11, 100], [21, 50]] },
        white,
        { type: 'LINE', pairs: [[8, '0'], [62, 3], [10, 50], [20, 0], [11, 50], [21, 100]] },
      ],
    }));
    try {
      await uploadToDrive(page, product.url, path.join(work, 'whitefill.dxf'));
      await page.click('[data-testid="open-whitefill.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await settle(page);
      await shoot(page, 'viewer-white-fill');
      expect(count(await pixelsIn(page, 41, 41, 59, 59), isRed), 'red under the white fill').toBe(0);
      expect((await pixelsIn(page, 44, 44, 46, 46)).every(([r, g, b]) => r > 240 && g > 240 && b > 240), 'the fill is white on the dark background').toBe(true);
      expect(count(await pixelsIn(page, 15, 48, 25, 52), isRed), 'red line outside the fill').toBeGreaterThan(5);
      expect(count(await pixelsIn(page, 49, 44, 51, 46), isGreen), 'green line drawn after the fill, over it').toBeGreaterThan(0);
    } catch (e) {
      await shoot(page, 'viewer-white-fill-failed');
      throw e;
    }
  });
});
