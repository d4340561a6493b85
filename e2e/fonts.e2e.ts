import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, root, shoot, startProduct, registerThroughLoginSite, confirmOk } from './harness.ts';

// A real TrueType font from an installed package; a generated TrueType header when it is absent
const liberation = path.join(root, 'node_modules/pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf');
if (!existsSync(liberation)) console.warn(`${liberation} not found: the font browser test uploads a generated TrueType header`);
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

describe('the font library in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let desktop: BrowserContext;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-fonts-'));
  const fontFile = path.join(work, 'LiberationSans-Regular.ttf');
  writeFileSync(fontFile, existsSync(liberation) ? readFileSync(liberation) : Buffer.concat([Buffer.from('0001000000010010000300000000', 'hex'), Buffer.from('head'), Buffer.alloc(12), randomBytes(64)]));
  const fontBytes = readFileSync(fontFile);
  const fakeFont = path.join(work, 'not-a-font.ttf');
  writeFileSync(fakeFont, '%PDF-1.7 this is not a font');

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    desktop = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN', acceptDownloads: true });
    page = await desktop.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function step<T>(p: Page, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `fonts-failed-${name}`);
      throw e;
    }
  }
  const row = (p: Page, name: string) => p.locator(`[data-testid="font-row-${name}"]`);
  async function rowAction(p: Page, name: string, action: string) {
    await p.click(`[data-testid="font-actions-${name}"]`);
    const item = p.locator(`.ant-dropdown:not(.ant-dropdown-hidden) [data-testid="font-action-${action}"]`);
    await item.waitFor();
    await item.click();
  }
  const listFonts = async (p: Page, deleted = false) =>
    (await (await p.request.post(`${product.url}/cloud/v5/font/list`, { data: { data: { delete: deleted ? 1 : 0 }, clientInfo: { clientType: 'Web_PC' } } })).json()).bizData.fontsList as any[];

  it('signs up and opens the empty font library from the menu', async () => {
    await step(page, 'open', async () => {
      await registerThroughLoginSite(page, product.url, '/yun/recent', 'fonts@example.com', 'Fonter');
      await page.locator('[data-testid=nav]').getByText('字体').click();
      await page.waitForURL(`${product.url}/yun/font`);
      await page.locator('[data-testid=fonts-empty]').waitFor();
      await page.getByText('字体库').first().waitFor();
    });
  });

  it('refuses a file that only pretends to be a font, then uploads a real .ttf', async () => {
    await step(page, 'upload', async () => {
      await page.setInputFiles('[data-testid=font-upload-input]', fakeFont);
      await page.getByText('字体上传仅支持 ttf、ttc、shx 格式').waitFor();
      expect(await page.locator('[data-testid=fonts-empty]').count()).toBe(1);
      expect(await page.locator('[data-testid=font-upload-input]').getAttribute('accept')).toBe('.ttf,.ttc,.shx');

      // progress: the page shows the upload while it runs (held back a moment so it can be seen)
      await page.route('**/cloud/v5/font/upload', async (r) => {
        await new Promise((res) => setTimeout(res, 700));
        await r.continue();
      });
      await page.setInputFiles('[data-testid=font-upload-input]', fontFile);
      await page.locator('[data-testid=font-upload-progress]').waitFor();
      await row(page, 'LiberationSans-Regular.ttf').waitFor({ timeout: 30_000 });
      await page.unroute('**/cloud/v5/font/upload');
      await page.locator('[data-testid=font-upload-progress]').waitFor({ state: 'hidden' });
      const r = row(page, 'LiberationSans-Regular.ttf');
      expect(await r.textContent()).toContain('TTF');
      expect(await r.locator('[data-testid=font-codepage]').textContent()).toBe('Unicode');
      const [f] = await listFonts(page);
      expect(f).toMatchObject({ name: 'LiberationSans-Regular.ttf', size: fontBytes.length, fileMD5: md5(fontBytes), ispublic: 0 });
      await shoot(page, 'fonts-uploaded');
    });
  });

  it('renames it; an empty name is refused', async () => {
    await step(page, 'rename', async () => {
      await rowAction(page, 'LiberationSans-Regular.ttf', 'rename');
      const input = page.locator('[data-testid=font-rename-input]');
      await input.fill('');
      await page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).click();
      await page.getByText('请输入字体名称').waitFor();
      await input.fill('MySans');
      await page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).click();
      await row(page, 'MySans.ttf').waitFor();
      expect(await row(page, 'LiberationSans-Regular.ttf').count()).toBe(0);
    });
  });

  it('edits name, code page, bold and italic in the dialog', async () => {
    await step(page, 'edit', async () => {
      await rowAction(page, 'MySans.ttf', 'edit');
      const form = page.locator('[data-testid=font-edit-form]');
      await form.waitFor();
      await page.locator('[data-testid=font-edit-name]').fill('');
      await page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).last().click();
      await form.getByText('请输入字体名称').waitFor(); // name is required
      await page.locator('[data-testid=font-edit-name]').fill('MySans Edited');
      await form.locator('.ant-select').click();
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText('简体中文 (936)').click();
      await page.locator('[data-testid=font-edit-bold]').check();
      await page.locator('[data-testid=font-edit-italic]').check();
      await page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).last().click();
      const r = row(page, 'MySans Edited.ttf');
      await r.waitFor();
      await r.locator('[data-testid=font-codepage]').getByText('简体中文 (936)').waitFor();
      expect(await r.locator('[data-testid=font-style]').textContent()).toBe('粗体 · 斜体');
      expect((await listFonts(page))[0]).toMatchObject({ name: 'MySans Edited.ttf', codepage: 39, isbold: 1, isitalic: 1 });
    });
  });

  it('publishes and unpublishes it', async () => {
    await step(page, 'publish', async () => {
      const sw = page.locator('[data-testid="font-public-MySans Edited.ttf"]');
      await sw.click();
      await page.getByText('已公开，所有用户的图纸都可以使用该字体').waitFor();
      await page.waitForFunction(() => document.querySelector('[data-testid="font-public-MySans Edited.ttf"]')?.getAttribute('aria-checked') === 'true');
      expect((await listFonts(page))[0].ispublic).toBe(1);
      await rowAction(page, 'MySans Edited.ttf', 'public'); // the menu's "取消公开"
      await page.waitForFunction(() => document.querySelector('[data-testid="font-public-MySans Edited.ttf"]')?.getAttribute('aria-checked') === 'false');
      expect((await listFonts(page))[0].ispublic).toBe(0);
      await sw.click();
      await page.waitForFunction(() => document.querySelector('[data-testid="font-public-MySans Edited.ttf"]')?.getAttribute('aria-checked') === 'true');
    });
  });

  it('downloads it, alone and as a batch zip, with the uploaded bytes', async () => {
    await step(page, 'download', async () => {
      const [one] = await Promise.all([page.waitForEvent('download'), rowAction(page, 'MySans Edited.ttf', 'download')]);
      const saved = path.join(work, 'downloaded.ttf');
      await one.saveAs(saved);
      expect(one.suggestedFilename()).toBe('MySans Edited.ttf');
      expect(md5(readFileSync(saved))).toBe(md5(fontBytes));

      await row(page, 'MySans Edited.ttf').locator('input[type=checkbox]').check();
      const [zip] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=font-batch-download]')]);
      const zipPath = path.join(work, 'fonts.zip');
      await zip.saveAs(zipPath);
      expect(zip.suggestedFilename()).toBe('MySans Edited.zip');
      const z = readFileSync(zipPath);
      expect(z.subarray(0, 4).toString('hex')).toBe('504b0304');
      expect(z.includes(Buffer.from('MySans Edited.ttf'))).toBe(true);
      expect(statSync(zipPath).size).toBeGreaterThan(100);
    });
  });

  it('deletes it to the font bin with a confirmation, and restores it', async () => {
    await step(page, 'delete', async () => {
      await rowAction(page, 'MySans Edited.ttf', 'delete');
      await confirmOk(page);
      await page.locator('[data-testid=fonts-empty]').waitFor();
      expect(await listFonts(page)).toEqual([]);
      await page.click('[data-testid=fonts-view-bin]');
      await row(page, 'MySans Edited.ttf').waitFor();
      await rowAction(page, 'MySans Edited.ttf', 'restore');
      await page.locator('[data-testid=fonts-empty]').waitFor();
      await page.click('[data-testid=fonts-view-library]');
      await row(page, 'MySans Edited.ttf').waitFor();
    });
  });

  it('works at phone width (/webH5/font): list, actions menu, delete for good', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      locale: 'en-US',
      storageState: { ...(await desktop.storageState()), origins: [] },
    });
    const m = await phone.newPage();
    try {
      await step(m, 'phone', async () => {
        await m.goto(`${product.url}/webH5/font`);
        await m.locator('[data-testid=h5-tabs]').waitFor();
        const r = row(m, 'MySans Edited.ttf');
        await r.waitFor();
        // nothing wider than the phone: no sideways scrolling
        const overflow = await m.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(1);
        expect(await m.locator('[data-testid=font-upload]').isVisible()).toBe(true);
        expect(await r.textContent()).toContain('公开'); // the public tag stands in for the hidden column
        await shoot(m, 'fonts-phone');
        await rowAction(m, 'MySans Edited.ttf', 'delete');
        await confirmOk(m);
        await m.locator('[data-testid=fonts-empty]').waitFor();
        await m.click('[data-testid=fonts-view-bin]');
        await rowAction(m, 'MySans Edited.ttf', 'forever');
        await confirmOk(m);
        await m.locator('[data-testid=fonts-empty]').waitFor();
        expect(await listFonts(m, true)).toEqual([]);
      });
    } finally {
      await phone.close();
    }
  });
});
