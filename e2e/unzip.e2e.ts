import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { configure, TextReader, Uint8ArrayWriter, ZipWriter } from '@zip.js/zip.js';
import { shoot } from './harness.ts';
import { planDxf } from './drawings.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import { IPHONE_UA, clickUntilShown, countViewerPixels, phoneOverflow, postApi, serveWebAppFrom, settle, uploadToDrive } from './page-helpers.ts';

const PASSWORD = '图纸2026';
const ARCHIVE = '图纸集.zip';
const DRAWING = '平面图.dxf';

/** A zip as Chinese Windows users send drawing sets now: AES-256, UTF-8 names, a folder inside. */
async function drawingSetZip(): Promise<Uint8Array> {
  configure({ useWebWorkers: false });
  const zip = new ZipWriter(new Uint8ArrayWriter(), { password: PASSWORD, encryptionStrength: 3 });
  await zip.add(DRAWING, new TextReader(planDxf()));
  await zip.add('立面/立面图.dxf', new TextReader(planDxf()));
  await zip.add('说明.txt', new TextReader('图纸说明：平面图与立面图\n'));
  return zip.close();
}

/**
 * Cloud decompression in a real browser (issue 18): a password-protected zip with Chinese names uploaded to the drive,
 * decompressed from it (a wrong password first, then the right one; then again, past the same-name folder), its
 * progress and success in the task panel's unzip tab, the folder opened and a drawing from it opened in the viewer;
 * the same at phone width. In English and Chinese. Any console error fails.
 */
describe('decompressing an archive from the drive in a real browser', () => {
  let product: SignedIn['product'];
  let browser: Browser;
  let ctx: BrowserContext;
  let page: Page;
  let web = '';
  let session: SignedIn | undefined;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-unzip-'));
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => m.type() === 'error' && errors.push(`${p.url()}: ${m.text()}`));
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
  };
  const setLang = (p: Page, lang: string) => p.evaluate((l) => localStorage.setItem('cadcloud.lang', l), lang);
  const row = (p: Page, name: string) => p.locator(`[data-testid="row-${name}"]`);
  const unzipRows = (p: Page) => p.locator('[data-testid=task-panel] [data-testid=unzip-row]');
  /** decompressions of the archive that succeeded so far (each test adds one) */
  let done = 0;

  beforeAll(async () => {
    writeFileSync(path.join(work, ARCHIVE), await drawingSetZip());
    session = await signedInDesktop('unzip@example.com', 'Uma');
    ({ product, browser, page, web } = session);
    ctx = page.context();
    watch(page);
    await uploadToDrive(page, product.url, path.join(work, ARCHIVE));
    errors.length = 0; // the signed-out first visit answers 401 before the login site: not decompression's doing
  }, 180_000);
  afterAll(async () => {
    await session?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** The password dialog: `wrong` first (said wrong, asked again), then the right one. */
  async function enterPassword(p: Page, wrongText?: string) {
    const field = p.locator('[data-testid=unzip-password]');
    await field.waitFor({ timeout: 20_000 });
    if (wrongText) {
      await field.fill('not-it');
      await p.click('[data-testid=unzip-password-ok]');
      await p.locator('[data-testid=unzip-password-wrong]').getByText(wrongText).waitFor({ timeout: 20_000 });
    }
    await field.fill(PASSWORD);
    await p.click('[data-testid=unzip-password-ok]');
    await field.waitFor({ state: 'detached', timeout: 20_000 });
  }

  /** The drawing from the extracted folder, drawn by the viewer (its walls are red). */
  async function drawn(p: Page) {
    await p.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model', undefined, { timeout: 60_000 });
    await settle(p);
    expect(await countViewerPixels(p, 'red')).toBeGreaterThan(20);
  }

  it('English, desktop: Decompress on the selected archive, a wrong password then the right one, progress and success in the unzip tab, the folder and its drawing open', async () => {
    try {
      await page.goto(`${product.url}/yun/index`);
      await row(page, ARCHIVE).waitFor();
      expect(await page.locator('[data-testid=btn-unzip]').count()).toBe(0);
      // a click on the archive does not open it: the spec's message, and Decompress offered
      await page.click(`[data-testid="open-${ARCHIVE}"]`);
      await page.locator('[data-testid=unzip-cannot-open]').getByText('Compressed package files do not support clicking to open').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('[data-testid=unzip-cannot-open]').waitFor({ state: 'detached' });
      await row(page, ARCHIVE).locator('input[type=checkbox]').check();
      await clickUntilShown(page.locator('[data-testid=btn-unzip]').getByText('Decompress'), page.locator('[data-testid=unzip-password]'));
      await enterPassword(page, 'Wrong password, please enter it again');
      // the panel opens on its unzip tab; the row shows progress until successful (polled every 5 s)
      await page.locator('[data-testid=task-panel] [role=tab][aria-selected=true]').getByText('Unzip').waitFor({ timeout: 10_000 });
      await unzipRows(page).first().getByText(ARCHIVE).waitFor();
      await unzipRows(page).first().locator('.ant-progress').waitFor();
      await page.locator('[data-testid=task-panel] [data-testid=unzip-row][data-status="2"]').waitFor({ timeout: 90_000 });
      const state = await page.locator('[data-testid=task-panel] [data-testid=unzip-row][data-status="2"] [data-testid=unzip-state]').first().textContent();
      expect(state).toMatch(/^Successful · (\d+) \/ \1 files · /);
      done++;
      // the drive (the archive's folder) shows the new folder without a reload
      await row(page, '图纸集').waitFor({ timeout: 20_000 });
      await shoot(page, 'unzip-desktop-en');
      await page.click('[data-testid=task-panel] [data-testid=unzip-open]');
      await page.waitForURL(/\/yun\/index\?folderId=/);
      await row(page, DRAWING).waitFor({ timeout: 20_000 });
      await row(page, '立面').waitFor();
      await row(page, '说明.txt').waitFor();
      await page.click(`[data-testid="open-${DRAWING}"]`);
      await page.waitForURL(/\/yun\/view\//);
      await drawn(page);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'unzip-desktop-en-failure');
      throw e;
    }
  });

  it('Chinese, desktop: again, past the same-name folder ("decompress again" into a renamed one), in Chinese', async () => {
    try {
      await setLang(page, 'zh');
      await page.goto(`${product.url}/yun/index`);
      await row(page, ARCHIVE).locator('input[type=checkbox]').check();
      await clickUntilShown(page.locator('[data-testid=btn-unzip]').getByText('解压'), page.locator('[data-testid=unzip-repeat]'));
      await page.getByText('已存在同名文件夹').first().waitFor();
      await page.click('[data-testid=unzip-again]');
      await enterPassword(page);
      await page.locator('[data-testid=task-panel] [role=tab][aria-selected=true]').getByText('解压').waitFor({ timeout: 10_000 });
      await expect.poll(() => page.locator('[data-testid=task-panel] [data-testid=unzip-row][data-status="2"]').count(), { timeout: 90_000 }).toBe(done + 1);
      done++;
      await page.locator('[data-testid=task-panel]').getByText(/^解压成功 · /).first().waitFor();
      await shoot(page, 'unzip-desktop-zh');
      // the renamed folder is a second one next to the archive; each holds the drawing
      await expect.poll(async () => (await postApi(page, `${product.url}/cloud/v5/union/list`, { parentId: '0' })).list.filter((i: { fileType: number; name: string }) => i.fileType === 0 && i.name.startsWith('图纸集')).length, { timeout: 20_000 }).toBe(2);
      const opened = new Set<string>();
      for (let n = 0; n < done; n++) {
        await page.locator('[data-testid=task-panel] [data-testid=unzip-open]').nth(n).click();
        await page.waitForURL(/\/yun\/index\?folderId=/);
        opened.add(new URL(page.url()).searchParams.get('folderId')!);
        await row(page, DRAWING).waitFor({ timeout: 20_000 });
      }
      expect(opened.size).toBe(2);
      await page.click(`[data-testid="open-${DRAWING}"]`);
      await page.waitForURL(/\/yun\/view\//);
      await drawn(page);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'unzip-desktop-zh-failure');
      throw e;
    } finally {
      await setLang(page, 'en');
    }
  });

  it('phone width, Chinese and English: a tap on the archive offers Decompress; its page shows the task; the folder and the drawing open', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 812 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true, storageState: await ctx.storageState() });
    await serveWebAppFrom(phone, product.url, web);
    const m = await phone.newPage();
    watch(m);
    try {
      for (const [lang, cannotOpen, again, success] of [['zh', '压缩包文件不支持点击打开', '重新解压', /^解压成功 · /], ['en', 'Compressed package files do not support clicking to open', 'Decompress again', /^Successful · /]] as const) {
        await m.goto(`${product.url}/webH5/cloud`);
        await setLang(m, lang);
        await m.reload();
        await m.locator(`[data-testid="h5-row-${ARCHIVE}"]`).tap();
        await m.locator('[data-testid=unzip-cannot-open]').getByText(cannotOpen).waitFor();
        await m.locator('[data-testid=unzip-offer]').tap();
        await m.locator('[data-testid=unzip-again]').getByText(again).waitFor({ timeout: 20_000 });
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
        await m.locator('[data-testid=unzip-again]').tap();
        await enterPassword(m);
        if (lang === 'zh') {
          // antd's static notices render outside the app's tree: they must still get the app's fonts, or Chinese
          // shows as empty boxes on a machine without system CJK fonts (the shipped Noto Sans SC fills in)
          const toast = m.locator('.ant-message').getByText('已加入解压列表');
          await toast.waitFor();
          expect(await toast.evaluate((el) => getComputedStyle(el).fontFamily)).toContain('Noto Sans SC');
        }
        // followed on the archive's page: its decompressions, this one successful
        await m.waitForURL(/\/webH5\/item\//);
        await expect.poll(() => m.locator('[data-testid=h5-unzip-tasks] [data-testid=unzip-row][data-status="2"]').count(), { timeout: 90_000 }).toBe(done + 1);
        done++;
        await m.locator('[data-testid=h5-unzip-tasks] [data-testid=unzip-state]').getByText(success).first().waitFor();
        expect(await phoneOverflow(m)).toBeLessThanOrEqual(0);
        await shoot(m, `unzip-phone-${lang}`);
        await m.locator('[data-testid=h5-unzip-tasks] [data-testid=unzip-open]').first().tap();
        await m.waitForURL(/\/webH5\/cloud\?folderId=/);
        await m.locator(`[data-testid="h5-row-${DRAWING}"]`).tap();
        await m.waitForURL(/\/webH5\/item\//);
        await drawn(m);
      }
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'unzip-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
