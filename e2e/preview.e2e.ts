import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import PDFDocument from 'pdfkit';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { IPHONE_UA, serveWebAppFrom, snapshotWebApp } from './page-helpers.ts';

/** A two-page PDF with a black box on each page (drawn pages are not blank). */
function twoPagePdf(): Promise<Buffer> {
  return new Promise((resolve) => {
    // packages/cad's pdfkit declaration covers what the renderer uses; addPage is pdfkit's own
    const doc = new PDFDocument({ size: 'A4' }) as PDFDocument & { addPage(): void };
    const parts: Buffer[] = [];
    doc.on('data', (d: Buffer) => parts.push(d));
    doc.on('end', () => resolve(Buffer.concat(parts)));
    doc.rect(100, 100, 300, 300).fill('#000');
    doc.addPage();
    doc.rect(100, 100, 200, 200).fill('#000');
    doc.end();
  });
}
const png = (w: number, h: number, r: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r, g: 0, b: 0 } } }).png().toBuffer();

/**
 * Clicking a picture opens it in a viewer (zoom, pan, rotate, previous/next in the folder); clicking a PDF shows its
 * pages in the browser (pdf.js, its worker from our origin under the CSP); clicking an archive says it cannot be
 * opened by clicking. Once, a click on any of them did nothing.
 */
describe('pictures, PDFs and archives open from the list in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  let web = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-preview-'));
  const paths: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    const files: [string, Buffer][] = [['a.png', await png(400, 200, 200)], ['b.png', await png(200, 400, 120)], ['doc.pdf', await twoPagePdf()], ['pack.zip', Buffer.from('504b0506000000000000000000000000000000000000', 'hex')]];
    for (const [name, body] of files) {
      paths.push(path.join(work, name));
      writeFileSync(paths.at(-1)!, body);
    }
    web = await snapshotWebApp();
    product = await startProduct();
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await serveWebAppFrom(ctx, product.url, web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await registerThroughLoginSite(page, product.url, '/yun/index', 'preview@example.com', 'Pia');
    await page.goto(`${product.url}/yun/index`);
    await page.click('[data-testid=btn-upload]');
    await page.setInputFiles('[data-testid=file-input]', paths);
    for (const p of paths) await page.locator(`[data-testid="row-${path.basename(p)}"]`).waitFor({ timeout: 60_000 });
    await page.keyboard.press('Escape');
    errors.length = 0; // the signed-out first visit answers 401 before the login site: not the previews' doing
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    if (web) rmSync(web, { recursive: true, force: true });
    rmSync(work, { recursive: true, force: true });
  });

  const img = (p: Page) => p.locator('[data-testid=image-preview-img]');
  const loaded = (p: Page) => p.waitForFunction(() => ((document.querySelector('[data-testid=image-preview-img]') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0);

  it('desktop: a picture opens in the viewer; zoom, pan, rotate, next and previous', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid="open-a.png"]');
      await page.waitForURL(/\/yun\/preview\//);
      await loaded(page);
      await page.locator('[data-testid=preview-name]').getByText('a.png').waitFor();
      const before = (await img(page).boundingBox())!;
      expect(before.width / before.height).toBeCloseTo(2, 1);
      await page.click('[data-testid=image-zoom-in]');
      await expect.poll(async () => (await img(page).boundingBox())!.width).toBeGreaterThan(before.width * 1.4);
      await page.click('[data-testid=image-fit]');
      await page.click('[data-testid=image-rotate]');
      await expect.poll(async () => { const b = (await img(page).boundingBox())!; return b.height / b.width; }).toBeCloseTo(2, 1);
      const stage = (await page.locator('[data-testid=image-stage]').boundingBox())!;
      const start = (await img(page).boundingBox())!;
      await page.mouse.move(stage.x + stage.width / 2, stage.y + stage.height / 2);
      await page.mouse.down();
      await page.mouse.move(stage.x + stage.width / 2 + 120, stage.y + stage.height / 2 + 40, { steps: 5 });
      await page.mouse.up();
      await expect.poll(async () => (await img(page).boundingBox())!.x - start.x).toBeGreaterThan(100);
      await page.click('[data-testid=image-next]');
      await page.locator('[data-testid=preview-name]').getByText('b.png').waitFor();
      await loaded(page);
      expect(await page.locator('[data-testid=image-next]').isDisabled()).toBe(true);
      await page.click('[data-testid=image-prev]');
      await page.locator('[data-testid=preview-name]').getByText('a.png').waitFor();
      await shoot(page, 'preview-image');
    } catch (e) {
      await shoot(page, 'preview-failed-image');
      throw e;
    }
  });

  it('desktop: a PDF shows its pages (pdf.js); an archive says it cannot be opened by clicking', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid="open-doc.pdf"]');
      await page.waitForURL(/\/yun\/preview\//);
      await page.locator('[data-testid=pdf-preview][data-pages="2"]').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid=pdf-page-1][data-drawn="1"]').waitFor({ timeout: 30_000 });
      const ink = await page.evaluate(() => {
        const c = document.querySelector('[data-testid=pdf-page-1]') as HTMLCanvasElement;
        const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] < 50) n++;
        return n / (d.length / 4);
      });
      expect(ink).toBeGreaterThan(0.05);
      await page.locator('[data-testid=pdf-page-2]').scrollIntoViewIfNeeded();
      await page.locator('[data-testid=pdf-page-2][data-drawn="1"]').waitFor({ timeout: 30_000 });
      await shoot(page, 'preview-pdf');
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid="open-pack.zip"]');
      await page.getByText('Compressed package files do not support clicking to open').waitFor();
      expect(page.url()).toMatch(/\/yun\/index/);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'preview-failed-pdf');
      throw e;
    }
  });

  it('phone (375 px): a tap on an archive says it cannot be opened by clicking; its ">" opens its details', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA, storageState: await page.context().storageState() });
    await serveWebAppFrom(phone, product.url, web);
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await phone.newPage();
    const phoneErrors: string[] = [];
    m.on('console', (c) => c.type() === 'error' && phoneErrors.push(c.text()));
    m.on('pageerror', (e) => phoneErrors.push(e.message));
    try {
      await m.goto(`${product.url}/webH5/cloud`);
      await m.locator('[data-testid="h5-row-pack.zip"]').tap();
      await m.getByText('Compressed package files do not support clicking to open').waitFor();
      expect(new URL(m.url()).pathname).toBe('/webH5/cloud');
      // the message comes in a dialog that offers to decompress instead (issue 18): declined here
      await m.locator('[data-testid=unzip-offer-cancel]').tap();
      await m.locator('[data-testid=unzip-cannot-open]').waitFor({ state: 'hidden' });
      await m.locator('[data-testid="h5-details-pack.zip"]').tap();
      await m.waitForURL(/\/webH5\/item\//);
      await m.getByText('pack.zip').first().waitFor();
      expect(phoneErrors).toEqual([]);
    } catch (e) {
      await shoot(m, 'preview-failed-phone-archive');
      throw e;
    } finally {
      await phone.close();
    }
  });

  it('phone (375 px): a tap opens the PDF and the picture, fitted to the width, with the file name', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA, storageState: await page.context().storageState() });
    await serveWebAppFrom(phone, product.url, web);
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await phone.newPage();
    try {
      await m.goto(`${product.url}/webH5/cloud`);
      await m.locator('[data-testid="h5-row-doc.pdf"]').tap();
      await m.waitForURL(/\/yun\/preview\//);
      await m.locator('[data-testid=pdf-page-1][data-drawn="1"]').waitFor({ timeout: 30_000 });
      const box = (await m.locator('[data-testid=pdf-page-1]').boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      await m.locator('[data-testid=preview-name]').getByText('doc.pdf').waitFor();
      await shoot(m, 'preview-phone-pdf');
      await m.goto(`${product.url}/webH5/cloud`);
      await m.locator('[data-testid="h5-row-b.png"]').tap();
      await m.waitForURL(/\/yun\/preview\//);
      await loaded(m);
      const ib = (await img(m).boundingBox())!;
      expect(ib.x + ib.width).toBeLessThanOrEqual(375.5);
      await m.locator('[data-testid=image-prev]').tap();
      await m.locator('[data-testid=preview-name]').getByText('a.png').waitFor();
      expect(await m.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } catch (e) {
      await shoot(m, 'preview-failed-phone');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
