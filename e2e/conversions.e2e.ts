import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { shoot } from './harness.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import sharp from 'sharp';
import { IPHONE_UA, clickUntilShown, phoneOverflow, postApi, screenPoint, serveWebAppFrom, uploadToDrive } from './page-helpers.ts';
import { convertFixtureDxf } from '../packages/cad/src/testing/convert-fixture.ts';
import { planDxf } from './drawings.ts';

/** Two filled squares far apart: red at 0–100, 0–100 and blue at 900–1000, 0–100. */
function twoSquaresDxf(): string {
  const square = (color: number, x: number) => ['0', 'SOLID', '8', '0', '62', String(color), '10', String(x), '20', '0', '11', String(x + 100), '21', '0', '12', String(x), '22', '100', '13', String(x + 100), '23', '100'];
  return ['0', 'SECTION', '2', 'ENTITIES', ...square(1, 0), ...square(5, 900), '0', 'ENDSEC', '0', 'EOF', ''].join('\n');
}

/**
 * Conversion in a real browser (issue 17): from the drive's toolbar "transform" and from the viewer, progress in the
 * task panel's conversion tab (or beside the viewer's button), the PDF result opened in the preview; in English and
 * Chinese, and at phone width. Any console error fails.
 */
describe('converting drawings to PDF in a real browser', () => {
  let product: SignedIn['product'];
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let web = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-convert-'));
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => m.type() === 'error' && errors.push(`${p.url()}: ${m.text()}`));
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
  };
  const setLang = (p: Page, lang: string) => p.evaluate((l) => localStorage.setItem('cadcloud.lang', l), lang);

  let session: SignedIn | undefined;
  beforeAll(async () => {
    for (const name of ['plan.dxf', '平面图.dxf']) writeFileSync(path.join(work, name), planDxf());
    // conversion is premium; this installation makes it free for everyone (the operator's setting)
    session = await signedInDesktop('convert@example.com', 'Conny', { FREE_CONVERSIONS_PER_MONTH: 'unlimited' });
    ({ product, browser, page, web } = session);
    ctx = page.context();
    watch(page);
    for (const name of ['plan.dxf', '平面图.dxf']) await uploadToDrive(page, product.url, path.join(work, name));
    errors.length = 0; // the signed-out first visit answers 401 before the login site: not the conversion's doing
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    rmSync(work, { recursive: true, force: true });
  });

  const row = (p: Page, name: string) => p.locator(`[data-testid="row-${name}"]`);
  async function openedPdf(p: Page) {
    await p.waitForURL(/\/yun\/preview\//);
    await p.locator('[data-testid=pdf-preview][data-pages="1"]').waitFor({ timeout: 60_000 });
    await p.locator('[data-testid=pdf-page-1][data-drawn="1"]').waitFor({ timeout: 60_000 });
  }

  it('English, desktop: toolbar transform → task panel conversion tab with progress → the PDF next to the drawing opens', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await expect.poll(() => page.locator('[data-testid=btn-transform]').isDisabled()).toBe(true);
      await row(page, 'plan.dxf').locator('input[type=checkbox]').check();
      await expect.poll(() => page.locator('[data-testid=btn-transform]').textContent()).toContain('Transform');
      await clickUntilShown(page.locator('[data-testid=btn-transform]'), page.locator('[data-testid=convert-dialog]'));
      await page.locator('[data-testid=convert-allowance]').getByText('Members convert without limit').waitFor();
      await page.click('[data-testid=convert-start]');
      // the panel opens on its conversion tab; the row goes from converting to converted (polled every 5 s)
      await page.locator('[data-testid=task-panel] [role=tab][aria-selected=true]').getByText('Convert').waitFor({ timeout: 10_000 });
      const conv = page.locator('[data-testid=task-panel] [data-testid=conversion-row]').first();
      await conv.getByText('plan.dxf → PDF').waitFor();
      await page.locator('[data-testid=task-panel] [data-testid=conversion-row][data-status="1"]').waitFor({ timeout: 90_000 });
      await conv.getByText('Converted · plan.pdf').waitFor();
      await row(page, 'plan.pdf').waitFor({ timeout: 20_000 });
      await shoot(page, 'convert-toolbar-en');
      await page.click('[data-testid=task-panel] [data-testid=conversion-open]');
      await openedPdf(page);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'convert-toolbar-en-failure');
      throw e;
    }
  });

  it('English, desktop: the viewer converts the open drawing and shows its progress, then opens the result', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid="open-plan.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await clickUntilShown(page.locator('[data-testid=viewer-convert]'), page.locator('[data-testid=convert-dialog]'));
      await page.click('[data-testid=convert-start]');
      // the button waits while the file converts; its progress sits beside it until the result can be opened
      await page.locator('[data-testid=convert-open-result][data-result-name="plan (1).pdf"]').waitFor({ timeout: 90_000 });
      await page.click('[data-testid=convert-open-result]');
      await openedPdf(page);
      await page.locator('[data-testid=preview-name]').getByText('plan (1).pdf').waitFor();
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'convert-viewer-en-failure');
      throw e;
    }
  });

  it('Chinese, desktop: the toolbar, dialog, panel and /yun/transformer speak Chinese; every conversion is listed with its result', async () => {
    try {
      await setLang(page, 'zh');
      await page.goto(`${product.url}/yun/index`);
      await row(page, '平面图.dxf').locator('input[type=checkbox]').check();
      await page.locator('[data-testid=btn-transform]').getByText('转换').waitFor();
      await clickUntilShown(page.locator('[data-testid=btn-transform]'), page.locator('[data-testid=convert-dialog]'));
      await page.locator('[data-testid=convert-dialog]').getByText('转换为').waitFor();
      await page.click('[data-testid=convert-start]');
      await page.locator('[data-testid=task-panel] [data-testid=conversion-row][data-status="1"]').getByText('平面图.dxf → PDF').waitFor({ timeout: 90_000 });
      await page.locator('[data-testid=task-panel]').getByText('转换成功 · 平面图.pdf').waitFor();
      await page.goto(`${product.url}/yun/transformer`);
      await page.locator('[data-testid=transformer-title]').getByText('格式转换').waitFor();
      await expect.poll(() => page.locator('[data-testid=transformer] [data-testid=conversion-row]').count(), { timeout: 30_000 }).toBe(3);
      await shoot(page, 'convert-transformer-zh');
      await page.locator('[data-testid=transformer] [data-testid=conversion-open]').first().click();
      await openedPdf(page);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'convert-zh-failure');
      throw e;
    } finally {
      await setLang(page, 'en');
    }
  });

  it('phone width, Chinese and English: convert from the opened drawing, watch it, open the PDF; the phone list of conversions', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true, storageState: await ctx.storageState() });
    await serveWebAppFrom(phone, product.url, web);
    const m = await phone.newPage();
    watch(m);
    try {
      for (const [lang, label, open, name] of [['zh', '转换格式', /打\s*开/, 'plan (2).pdf'], ['en', 'Convert', 'Open', 'plan (3).pdf']] as const) {
        await m.goto(`${product.url}/webH5`);
        await setLang(m, lang);
        const files = await postApi(m, `${product.url}/cloud/v5/union/list`, { parentId: '0' });
        const plan = files.list.find((i: { name: string }) => i.name === 'plan.dxf');
        await m.goto(`${product.url}/webH5/item/${plan.id}`);
        // on the phone Convert is on the file's details (ⓘ): the viewer's bar has no room for it at 375 px
        await clickUntilShown(m.locator('[data-testid=h5-details]'), m.locator('[data-testid=viewer-convert]'));
        await m.locator('[data-testid=viewer-convert]').getByText(label).waitFor({ timeout: 30_000 });
        await clickUntilShown(m.locator('[data-testid=viewer-convert]'), m.locator('[data-testid=convert-dialog]'));
        await m.click('[data-testid=convert-start]');
        // this conversion's result (antd spaces a two-character Chinese label: 打 开)
        // (the drawing was converted before: its earlier result must not count)
        await m.locator(`[data-testid=convert-open-result][data-result-name="${name}"]`).getByText(open).waitFor({ timeout: 90_000 });
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
        await shoot(m, `convert-phone-${lang}`);
        await m.click('[data-testid=convert-open-result]');
        await openedPdf(m);
        await m.locator('[data-testid=preview-name]').getByText(name).waitFor();
      }
      await m.goto(`${product.url}/webH5/transformer`);
      await expect.poll(() => m.locator('[data-testid=transformer] [data-testid=conversion-row]').count(), { timeout: 30_000 }).toBe(5);
      expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'convert-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  });

  it("the viewer's Convert, \"current layout\": the layout the viewer shows (a paper layout), not the drawing's default", async () => {
    try {
      // model space and the paper layout "Sheet A3": the viewer opens on model space, the drawing's default
      const sheets = path.join(work, 'sheets.dxf');
      writeFileSync(sheets, convertFixtureDxf());
      await uploadToDrive(page, product.url, sheets);
      await page.click('[data-testid="open-sheets.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await page.click('[data-testid=viewer-layout]');
      await page.locator('.ant-select-item-option').getByText('Sheet A3').click();
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Sheet A3');
      await clickUntilShown(page.locator('[data-testid=viewer-convert]'), page.locator('[data-testid=convert-dialog]'));
      await page.locator('[data-testid=convert-dialog]').getByText('Current layout (Sheet A3)').click();
      const sent = page.waitForRequest((r) => r.url().includes('/cloud/v5/file/task/transformBatch'));
      await page.click('[data-testid=convert-start]');
      expect(JSON.parse((await sent).postData() ?? '{}').data.options.layouts).toEqual(['Sheet A3']);
      // the result is that layout alone: one page (openedPdf waits for a PDF of one page)
      await page.locator('[data-testid=convert-open-result][data-result-name="sheets.pdf"]').waitFor({ timeout: 90_000 });
      await page.click('[data-testid=convert-open-result]');
      await openedPdf(page);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'convert-viewer-layout-failure');
      throw e;
    }
  });

  it("the viewer's Convert to PNG of the current view: zoomed into one part, the picture shows that part only", async () => {
    try {
      const squares = path.join(work, 'squares.dxf');
      writeFileSync(squares, twoSquaresDxf());
      await uploadToDrive(page, product.url, squares);
      await page.click('[data-testid="open-squares.dxf"]');
      await page.waitForURL(/\/yun\/view\//);
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      // zoom in about the red square until the blue one is far outside the view
      const red = await screenPoint(page, 50, 50);
      await page.mouse.move(red.x, red.y);
      for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -300);
      await expect.poll(async () => (await screenPoint(page, 900, 50)).x).toBeGreaterThan(1400);
      await clickUntilShown(page.locator('[data-testid=viewer-convert]'), page.locator('[data-testid=convert-dialog]'));
      await page.locator('[data-testid=convert-target]').click();
      await page.locator('.ant-select-item-option').getByText('PNG picture').click();
      await page.locator('[data-testid=convert-area]').getByText('Current view').click();
      const sent = page.waitForRequest((r) => r.url().includes('/cloud/v5/file/task/transformBatch'));
      await page.click('[data-testid=convert-start]');
      const area = JSON.parse((await sent).postData() ?? '{}').data.options.area;
      // the view holds the red square's middle and not the blue square
      expect(area.minX).toBeLessThan(50);
      expect(area.maxX).toBeGreaterThan(50);
      expect(area.maxX).toBeLessThan(900);
      await page.locator('[data-testid=convert-open-result][data-result-name="squares.png"]').waitFor({ timeout: 90_000 });
      // the picture, downloaded from the drive: red inside the view drawn, blue outside it absent
      await page.goto(`${product.url}/yun/index`);
      await row(page, 'squares.png').locator('input[type=checkbox]').check();
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=btn-download]')]);
      const saved = path.join(work, 'squares.png');
      await download.saveAs(saved);
      const { data, info } = await sharp(readFileSync(saved)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      let reds = 0, blues = 0;
      for (let i = 0; i < data.length; i += info.channels) {
        if (data[i] > 200 && data[i + 1] < 60 && data[i + 2] < 60) reds++;
        if (data[i] < 60 && data[i + 1] < 60 && data[i + 2] > 200) blues++;
      }
      // the red square fills a good part of the zoomed view (over 5 % of the picture); of the whole drawing it would be under 1 %
      expect(reds / (info.width * info.height)).toBeGreaterThan(0.05);
      expect(blues).toBe(0);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'convert-viewer-area-failure');
      throw e;
    }
  });
});
