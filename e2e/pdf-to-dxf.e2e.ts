import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { circlePath, fixturePdf } from '../packages/cad/src/testing/pdf-fixture.ts';
import { pairValue, parseDxf } from '../packages/cad/src/dxf/reader.ts';
import { shoot } from './harness.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import { IPHONE_UA, clickUntilShown, countViewerPixels, phoneOverflow, postApi, serveWebAppFrom, settle, uploadToDrive } from './page-helpers.ts';

/** A one-page plan as a PDF: red walls, a circle, a red filled column and a title. */
const PLAN_PDF = fixturePdf([{
  content: ['1 0 0 RG 2 w 72 72 m 520 72 l 520 500 l 72 500 l h S', '0 0 1 RG', circlePath(300, 300, 60), 'S', '1 0 0 rg 100 100 40 40 re f', '0 g BT /F1 18 Tf 1 0 0 1 100 540 Tm (Ground floor) Tj ET'].join('\n'),
  width: 595, height: 600,
}]);

/**
 * A survey sheet 500 × 400 pt: the known distance, a line from (100, 300) to (400, 300) (300 pt, 105.83 mm on the
 * page), a frame and a diagonal near it.
 */
const SURVEY = { from: [100, 300] as const, to: [400, 300] as const, width: 500, height: 400 };
const SURVEY_PDF = fixturePdf([{
  content: ['0 G 1 w 100 300 m 400 300 l S', '20 20 m 480 20 l 480 380 l 20 380 l h S', '0 0 1 RG 120 60 m 380 260 l S'].join('\n'),
  width: SURVEY.width, height: SURVEY.height,
}]);

/**
 * PDF → drawing in a real browser (issue 17 part 5): a PDF selected in the drive converts to DXF from the toolbar's
 * "transform" (the dialog offers the drawing target and the page placement), the task panel shows it done, and the
 * DXF opens in the viewer with the PDF's lines; at phone width in Chinese from the PDF's details. Any console error fails.
 */
describe('converting a PDF to DXF in a real browser', () => {
  let product: SignedIn['product'];
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let web = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-pdf2dxf-'));
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => m.type() === 'error' && errors.push(`${p.url()}: ${m.text()}`));
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
  };

  let session: SignedIn | undefined;
  beforeAll(async () => {
    writeFileSync(path.join(work, 'plan.pdf'), PLAN_PDF);
    writeFileSync(path.join(work, 'survey.pdf'), SURVEY_PDF);
    session = await signedInDesktop('pdf2dxf@example.com', 'Piet', { FREE_CONVERSIONS_PER_MONTH: 'unlimited' });
    ({ product, browser, page, web } = session);
    ctx = page.context();
    watch(page);
    await uploadToDrive(page, product.url, path.join(work, 'plan.pdf'));
    await uploadToDrive(page, product.url, path.join(work, 'survey.pdf'));
    errors.length = 0; // the signed-out first visit answers 401 before the login site: not the conversion's doing
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const row = (p: Page, name: string) => p.locator(`[data-testid="row-${name}"]`);

  /** a phone-sized page of the same user, in Chinese */
  const phoneInChinese = async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true, storageState: await ctx.storageState() });
    await serveWebAppFrom(phone, product.url, web);
    const m = await phone.newPage();
    watch(m);
    await m.goto(`${product.url}/webH5`);
    await m.evaluate(() => localStorage.setItem('cadcloud.lang', 'zh'));
    return { phone, m };
  };
  /** the convert dialog from a PDF's details on the phone */
  const openConvertOnPhone = async (m: Page, name: string) => {
    const files = await postApi(m, `${product.url}/cloud/v5/union/list`, { parentId: '0' });
    const pdf = files.list.find((i: { name: string }) => i.name === name);
    await m.goto(`${product.url}/webH5/item/${pdf.id}`);
    await m.locator('[data-testid=viewer-convert]').getByText('转换格式').waitFor({ timeout: 30_000 });
    await clickUntilShown(m.locator('[data-testid=viewer-convert]'), m.locator('[data-testid=convert-dialog]'));
  };

  it('English, desktop: a PDF selected → transform → DXF → the task panel says done → the DXF opens in the viewer with the lines', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await row(page, 'plan.pdf').locator('input[type=checkbox]').check();
      await clickUntilShown(page.locator('[data-testid=btn-transform]'), page.locator('[data-testid=convert-dialog]'));
      // what a PDF converts to: a drawing, each page a layout or all in model space
      await page.locator('[data-testid=convert-target]').getByText('DXF drawing').waitFor();
      await page.locator('[data-testid=convert-pdf-placement]').getByText('Each page as a layout').waitFor();
      await page.click('[data-testid=convert-start]');
      await page.locator('[data-testid=task-panel] [role=tab][aria-selected=true]').getByText('Convert').waitFor({ timeout: 10_000 });
      const done = page.locator('[data-testid=task-panel] [data-testid=conversion-row][data-status="1"]');
      await done.getByText('plan.pdf → DXF').waitFor({ timeout: 90_000 });
      await done.getByText('Converted · plan.dxf').waitFor();
      await row(page, 'plan.dxf').waitFor({ timeout: 20_000 });
      await shoot(page, 'pdf2dxf-toolbar-en');
      await page.click('[data-testid=task-panel] [data-testid=conversion-open]');
      await page.waitForURL(/\/yun\/view\//);
      // the page is a paper layout of the drawing; its red walls and fill are drawn
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Page 1', undefined, { timeout: 60_000 });
      await settle(page);
      expect(await countViewerPixels(page, 'red')).toBeGreaterThan(50);
      expect(await countViewerPixels(page, 'blue')).toBeGreaterThan(20);
      await shoot(page, 'pdf2dxf-viewer-en');
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'pdf2dxf-en-failure');
      throw e;
    }
  });

  it('phone width, Chinese: the PDF\'s details convert it to DXF and open the result', async () => {
    const { phone, m } = await phoneInChinese();
    try {
      await openConvertOnPhone(m, 'plan.pdf');
      await m.locator('[data-testid=convert-target]').getByText('DXF 图纸').waitFor();
      await m.locator('[data-testid=convert-pdf-placement]').getByText('全部放在模型空间').click();
      await m.locator('[data-testid=convert-pdf-pages]').fill('1');
      await m.click('[data-testid=convert-start]');
      await m.locator('[data-testid=convert-open-result][data-result-name="plan (1).dxf"]').waitFor({ timeout: 90_000 });
      expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
      await shoot(m, 'pdf2dxf-phone-zh');
      await m.click('[data-testid=convert-open-result]');
      // stacked in model space: the drawing opens on Model
      await m.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
      await settle(m);
      expect(await countViewerPixels(m, 'red')).toBeGreaterThan(50);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'pdf2dxf-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  });

  /** CSS pixels in the page of a point of the survey sheet (PDF user space, y up) on the calibration canvas */
  const onCanvas = async (p: Page, x: number, y: number) => {
    const canvas = p.locator('[data-testid=convert-pdf-calibrate-canvas][data-drawn="1"]');
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    const s = box.width / SURVEY.width;
    return { x: box.x + x * s, y: box.y + (SURVEY.height - y) * s };
  };
  const openCalibration = async (p: Page) => {
    await p.locator('[data-testid=convert-pdf-calibrate]').click();
    await p.locator('[data-testid=convert-pdf-calibrate-canvas][data-drawn="1"]').waitFor({ timeout: 30_000 });
    await p.waitForFunction(() => Number(document.querySelector('[data-testid=convert-pdf-calibrate-canvas]')?.getAttribute('data-snap-points')) > 0);
  };

  it('English, desktop: calibrated by a known distance (two clicks snapped to the line\'s ends, 6000 mm) → the DXF\'s line is 6000 mm', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await row(page, 'survey.pdf').locator('input[type=checkbox]').check();
      await clickUntilShown(page.locator('[data-testid=btn-transform]'), page.locator('[data-testid=convert-dialog]'));
      await openCalibration(page);
      // clicks a few pixels off the line's ends: each snaps to the end
      const a = await onCanvas(page, SURVEY.from[0], SURVEY.from[1]);
      await page.mouse.click(a.x + 3, a.y - 2);
      const b = await onCanvas(page, SURVEY.to[0], SURVEY.to[1]);
      await page.mouse.click(b.x - 2, b.y + 3);
      await page.locator('[data-testid=convert-pdf-calibrate-points]').getByText('On the page: 105.83 mm').waitFor();
      expect(await page.locator('[data-testid=convert-pdf-calibrate-overlay] line').count()).toBe(1);
      // no length yet: nothing to start
      expect(await page.locator('[data-testid=convert-start]').isDisabled()).toBe(true);
      await page.locator('[data-testid=convert-pdf-calibrate-length]').fill('6000');
      await shoot(page, 'pdf2dxf-calibrate-en');
      const sent = page.waitForRequest((r) => r.url().includes('/cloud/v5/file/task/transformBatch'));
      await page.click('[data-testid=convert-start]');
      const options = JSON.parse((await sent).postData() ?? '{}').data.options;
      expect(options.scale).toBeUndefined();
      expect(options.calibrate.mm).toBe(6000);
      for (const [got, want] of [[options.calibrate.from, SURVEY.from], [options.calibrate.to, SURVEY.to]]) {
        expect(got[0]).toBeCloseTo(want[0], 3);
        expect(got[1]).toBeCloseTo(want[1], 3);
      }
      const done = page.locator('[data-testid=task-panel] [data-testid=conversion-row][data-status="1"]');
      await done.getByText('survey.pdf → DXF').waitFor({ timeout: 90_000 });
      // the DXF from the drive: its line as long as entered, within 0.5 %
      await page.goto(`${product.url}/yun/index`);
      await row(page, 'survey.dxf').locator('input[type=checkbox]').check();
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=btn-download]')]);
      const saved = path.join(work, 'survey.dxf');
      await download.saveAs(saved);
      const d = parseDxf(new Uint8Array(readFileSync(saved)));
      const lines = [...d.entities, ...d.blocks.flatMap((x) => x.entities)].filter((e) => e.type === 'LINE');
      const lengths = lines.map((l) => Math.hypot(Number(pairValue(l, 11)) - Number(pairValue(l, 10)), Number(pairValue(l, 21)) - Number(pairValue(l, 20))));
      const known = lengths.find((len) => Math.abs(len - 6000) / 6000 < 0.005);
      expect(known, `line lengths ${lengths.map((x) => x.toFixed(1)).join(', ')}`).toBeDefined();
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'pdf2dxf-calibrate-failure');
      throw e;
    }
  });

  it('phone width, Chinese: two taps and a length in metres send the calibration', async () => {
    const { phone, m } = await phoneInChinese();
    try {
      await openConvertOnPhone(m, 'survey.pdf');
      await m.locator('[data-testid=convert-dialog]').getByText('按已知距离校准').waitFor();
      await openCalibration(m);
      const a = await onCanvas(m, SURVEY.from[0], SURVEY.from[1]);
      await m.touchscreen.tap(a.x + 4, a.y + 4);
      const b = await onCanvas(m, SURVEY.to[0], SURVEY.to[1]);
      await m.touchscreen.tap(b.x - 4, b.y - 3);
      await m.locator('[data-testid=convert-pdf-calibrate-points]').getByText('页面上：105.83 毫米').waitFor();
      await m.locator('[data-testid=convert-pdf-calibrate-length]').fill('6');
      await m.locator('[data-testid=convert-pdf-calibrate-unit]').click();
      await m.locator('.ant-select-item-option').getByText('m', { exact: true }).click();
      expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
      await shoot(m, 'pdf2dxf-calibrate-phone-zh');
      const sent = m.waitForRequest((r) => r.url().includes('/cloud/v5/file/task/transformBatch'));
      await m.click('[data-testid=convert-start]');
      const options = JSON.parse((await sent).postData() ?? '{}').data.options;
      expect(options.calibrate.mm).toBe(6000);
      expect(Math.hypot(options.calibrate.to[0] - options.calibrate.from[0], options.calibrate.to[1] - options.calibrate.from[1])).toBeCloseTo(300, 3);
      await m.locator('[data-testid=convert-open-result][data-result-name="survey (1).dxf"]').waitFor({ timeout: 90_000 });
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'pdf2dxf-calibrate-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
