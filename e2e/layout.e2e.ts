import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { IPHONE_UA, clickDrawingAt, postApi, serveWebAppFrom, settle, snapshotWebApp, VIEWER_TOOLS_FOR_ALL } from './page-helpers.ts';

/**
 * Layout faults seen in screenshots (issue 16 item 11), each checked on geometry or content: the compare page's
 * change list beside (not over) the drawing; the viewer's Korean font notes not cut off; on the phone a long file
 * name not under the ">" arrow and the viewer naming its file; the task panel not over the size and date columns;
 * measurements in the drawing's units; an INSERT's properties naming its block.
 */

/** A drawing in millimetres with a block DOOR inserted at (50, 0), a line, and a text in a style whose fonts are missing. */
function drawing(label: string): Buffer {
  const text = new TextDecoder().decode(writeAsciiDxf({
    layers: ['0'],
    blocks: [{ name: 'DOOR', entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 10], [21, 10]] }] }],
    entities: [
      { type: 'INSERT', pairs: [[8, '0'], [2, 'DOOR'], [10, 50], [20, 0]] },
      { type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 40], [21, 0]] },
      { type: 'TEXT', pairs: [[8, '0'], [7, 'KSTYLE'], [10, 0], [20, 20], [40, 4], [1, label]] },
    ],
  }));
  // a STYLE table naming fonts nobody has: the viewer lists them as substituted
  const style = ['  0', 'TABLE', '  2', 'STYLE', ' 70', '1', '  0', 'STYLE', '  2', 'KSTYLE', ' 70', '0', ' 40', '0', ' 41', '1', ' 50', '0', ' 71', '0', ' 42', '4', '  3', 'a-very-long-missing-korean-font-name.shx', '  4', 'another-long-missing-big-font.shx', '  0', 'ENDTAB', ''].join('\r\n');
  return Buffer.from(text.replace(/(  0\r\nENDTAB\r\n)(?![\s\S]*ENDTAB)/, `$1${style}`));
}

/** Whether two boxes share any area. */
const overlap = (a: { x: number; y: number; width: number; height: number }, b: { x: number; y: number; width: number; height: number }) =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;
const box = async (l: Locator) => (await l.boundingBox())!;

describe('layout faults in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let web = '';
  let fileId = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-layout-'));
  const longName = 'a-very-long-drawing-name-without-any-spaces-from-the-site-office-rev-2026-final.dxf';

  beforeAll(async () => {
    web = await snapshotWebApp();
    product = await startProduct({ ...VIEWER_TOOLS_FOR_ALL });
    browser = await launchBrowser();
    ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await serveWebAppFrom(ctx, product.url, web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', localStorage.getItem('cadcloud.lang') ?? 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'layout@example.com', 'Lou');
    const up = await page.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name: 'plan.dxf', mimeType: 'application/octet-stream', buffer: drawing('V1') } } });
    fileId = (await up.json()).bizData.id;
    const ver = await page.request.post(`${product.url}/cloud/v5/version/upload`, { multipart: { fileId, filedata: { name: 'plan.dxf', mimeType: 'application/octet-stream', buffer: drawing('V2') } } });
    expect((await ver.json()).rtnCode).toBe('0000000');
    await page.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name: longName, mimeType: 'application/octet-stream', buffer: drawing('long') } } });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    if (web) rmSync(web, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  async function step(p: Page, name: string, fn: () => Promise<void>) {
    try {
      await fn();
    } catch (e) {
      await shoot(p, `layout-failed-${name}`);
      throw e;
    }
  }
  const openViewer = async (p: Page) => {
    await p.goto(`${product.url}/yun/view/${fileId}`);
    await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
    await settle(p);
  };

  it('measuring names the drawing\'s units; an INSERT\'s properties name its block', async () => {
    await step(page, 'units-block', async () => {
      await openViewer(page);
      await page.click('[data-testid=viewer-btn-info]');
      await page.locator('[data-testid=viewer-tools] .ant-segmented-item').nth(1).click();
      await clickDrawingAt(page, 0, 0);
      await clickDrawingAt(page, 40, 0);
      await page.locator('[data-testid=viewer-measure]').getByText('units: mm').waitFor();
      await page.locator('[data-testid=viewer-tools] .ant-segmented-item').nth(0).click();
      await clickDrawingAt(page, 55, 5);
      await page.locator('[data-testid=viewer-props]').getByText('INSERT', { exact: true }).waitFor();
      expect(await page.locator('[data-testid=viewer-prop-block]').textContent()).toBe('DOOR');
    });
  });

  it('measuring writes lengths in the drawing\'s unit format ($LUNITS/$LUPREC), as AutoCAD does', async () => {
    await step(page, 'unit-format', async () => {
      // inches, architectural to 1/16": the 40-unit line is 3'-4"; the same lines in decimals to 2 places: 40.00
      const line = { type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 40], [21, 0]] as [number, number | string][] };
      const arch = Buffer.from(new TextDecoder().decode(writeAsciiDxf({ header: [['$LUNITS', [[70, 4]]], ['$LUPREC', [[70, 4]]]], entities: [line] })).replace('$INSUNITS\r\n 70\r\n4\r\n', '$INSUNITS\r\n 70\r\n1\r\n'));
      const dec = Buffer.from(writeAsciiDxf({ header: [['$LUNITS', [[70, 2]]], ['$LUPREC', [[70, 2]]]], entities: [line] }));
      const upload = async (name: string, body: Buffer) => (await (await page.request.post(`${product.url}/cloud/v5/file/upload`, { multipart: { filedata: { name, mimeType: 'application/octet-stream', buffer: body } } })).json()).bizData.id as string;
      const open = async (id: string) => {
        await page.goto(`${product.url}/yun/view/${id}`);
        await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
        await settle(page);
        await page.click('[data-testid=viewer-btn-info]');
      };
      const tool = (n: number) => page.locator('[data-testid=viewer-tools] .ant-segmented-item').nth(n).click();
      await open(await upload('arch.dxf', arch));
      await tool(1);
      await clickDrawingAt(page, 0, 0);
      await clickDrawingAt(page, 40, 0);
      await page.locator('[data-testid=viewer-measure]').getByText(`Distance 3'-4" (ΔX 3'-4", ΔY 0'-0")`, { exact: true }).waitFor();
      await open(await upload('decimal.dxf', dec));
      await tool(1);
      await clickDrawingAt(page, 0, 0);
      await clickDrawingAt(page, 40, 0);
      await page.locator('[data-testid=viewer-measure]').getByText('Distance 40.00 (ΔX 40.00, ΔY 0.00) · units: mm', { exact: true }).waitFor();
    });
  });

  it('Korean font notes in the viewer panel wrap instead of being cut off', async () => {
    await step(page, 'ko-fonts', async () => {
      await page.evaluate(() => localStorage.setItem('cadcloud.lang', 'ko'));
      onTestFinished(() => page.evaluate(() => localStorage.setItem('cadcloud.lang', 'en')));
      await openViewer(page);
      await page.click('[data-testid=viewer-btn-info]');
      const tags = page.locator('[data-testid=viewer-fonts] .ant-tag');
      await tags.first().waitFor();
      const clipped = await tags.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().right > (e.closest('.viewer-panel') ?? document.body).getBoundingClientRect().right + 0.5).map((e) => e.textContent));
      expect(clipped).toEqual([]);
      await page.evaluate(() => localStorage.setItem('cadcloud.lang', 'en'));
    });
  });

  it('the compare page\'s change list is beside the drawing, not over it', async () => {
    await step(page, 'compare', async () => {
      const list = (await postApi(page, `${product.url}/cloud/v5/version/history`, { fileId })).list as { versionId: string; version: number }[];
      const a = list.find((v) => v.version === 1)!.versionId, b = list.find((v) => v.version === 2)!.versionId;
      await page.goto(`${product.url}/yun/version/${fileId}/compare?a=${a}&b=${b}`);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await page.locator('[data-testid=compare-panel]').waitFor();
      await settle(page);
      expect(overlap(await box(page.locator('[data-testid=compare-panel]')), await box(page.locator('[data-testid=viewer-canvas]')))).toBe(false);
    });
  });

  it('the task panel leaves the size and date columns visible', async () => {
    await step(page, 'task-panel', async () => {
      // a laptop's short window: the panel (bottom right) sits where the list's rows are
      await page.setViewportSize({ width: 1280, height: 480 });
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=btn-upload]');
      const f = path.join(work, 'new.dxf');
      writeFileSync(f, drawing('new'));
      await page.setInputFiles('[data-testid=file-input]', f);
      await page.locator('[data-testid="row-new.dxf"]').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      const panel = await box(page.locator('[data-testid=task-panel]'));
      const names = await page.locator('[data-testid^="row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid')!.slice(4)));
      // the set-up's files and the new one, and any an earlier test of this file uploaded
      expect(names.length).toBeGreaterThanOrEqual(3);
      // the rows behind the panel's height are the ones it could cover
      let behind = 0;
      for (const name of names) {
        const r = await box(page.locator(`[data-testid="row-${name}"]`));
        if (r.y + r.height > panel.y && r.y < panel.y + panel.height) behind++;
      }
      expect(behind).toBeGreaterThan(0);
      for (const name of names) {
        const cells = page.locator(`[data-testid="row-${name}"] td`);
        const n = await cells.count();
        for (let i = 2; i < n; i++) expect({ name, cell: i, overlaps: overlap(await box(cells.nth(i)), panel) }).toEqual({ name, cell: i, overlaps: false });
      }
      await page.setViewportSize({ width: 1280, height: 860 });
    });
  });

  it('phone: a long name stays clear of the ">" arrow; the viewer names its file', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA, storageState: await ctx.storageState() });
    await serveWebAppFrom(phone, product.url, web);
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await phone.newPage();
    await step(m, 'phone', async () => {
      await m.goto(`${product.url}/webH5/cloud`);
      const row = m.locator(`[data-testid="h5-row-${longName}"]`);
      await row.waitFor();
      const title = row.locator('.ant-list-item-meta-title');
      const arrow = row.locator('.anticon-right');
      expect(overlap(await box(title), await box(arrow))).toBe(false);
      expect(await title.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      expect(await title.textContent()).toBe(longName);
      await row.tap();
      await m.waitForURL(/\/webH5\/item\//);
      const name = m.locator('[data-testid=viewer-name]');
      await name.waitFor({ timeout: 60_000 });
      expect(await name.getAttribute('title')).toBe(longName);
      const nb = await box(name);
      expect(nb.width).toBeGreaterThan(40);
      expect(nb.x + nb.width).toBeLessThanOrEqual(375);
      expect(await m.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    });
    await phone.close();
  });
});
