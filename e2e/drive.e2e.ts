import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchBrowser, samplesDir, shoot, startProduct, confirmOk, openRegistrationMail } from './harness.ts';

const sample = path.join(samplesDir, 'dwg_2004_ddc_floorplan.dwg');
const hasSample = existsSync(sample);
if (!hasSample) console.warn(`samples not found at ${samplesDir}: the browser test uploads a generated drawing instead`);

describe('the drive in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let desktop: BrowserContext;
  let page: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-files-'));
  const drawing = hasSample ? sample : path.join(work, 'generated.dxf');
  const drawingName = path.basename(drawing);
  if (!hasSample) writeFileSync(drawing, `0\nSECTION\n2\nENTITIES\n0\nLINE\n8\n0\n10\n0\n20\n0\n11\n${randomBytes(4).readUInt16LE()}\n21\n1\n0\nENDSEC\n0\nEOF\n`);
  const folder = path.join(work, 'Project-A');
  mkdirSync(path.join(folder, 'details'), { recursive: true });
  writeFileSync(path.join(folder, 'plan.dxf'), `0\nEOF\n${randomBytes(64).toString('hex')}`);
  writeFileSync(path.join(folder, 'details', 'note.txt'), 'notes');

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

  async function step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(page, `failed-${name}`);
      throw e;
    }
  }
  const row = (name: string) => page.locator(`[data-testid="row-${name}"]`);
  const select = async (name: string) => row(name).locator('input[type=checkbox]').check();

  it('registers on the login site and lands on /yun/recent', async () => {
    await step('register', async () => {
      await page.goto(`${product.url}/yun/recent`);
      await page.waitForURL(/\/interaction\//);
      expect(page.url().startsWith(product.url)).toBe(false); // the separate login site
      await page.click('a[href$="/register"]');
      await page.fill('#email', 'alice@example.com');
      await page.fill('#name', 'Alice');
      await page.fill('#password', 'correct horse');
      await page.fill('#confirm', 'correct horse');
      await page.click('button[type=submit]');
      await openRegistrationMail(page, product.url, 'alice@example.com');
      await page.waitForURL(`${product.url}/yun/recent`);
      await page.getByText('Alice').waitFor();
      await page.getByText('最近文件').first().waitFor(); // zh is the default
    });
  });

  it('uploads a drawing and a folder and lists them', async () => {
    await step('upload', async () => {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', drawing);
      await page.locator('[data-testid=task-panel]').waitFor();
      await row(drawingName).waitFor({ timeout: 60_000 });
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=folder-input]', folder);
      await row('Project-A').waitFor({ timeout: 30_000 });
      await row('Project-A').getByText('Project-A').click();
      await row('plan.dxf').waitFor();
      await row('details').waitFor();
      await page.goto(`${product.url}/yun/drawing`);
      await row(drawingName).waitFor();
      // drag and drop onto the upload dialog
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=btn-upload]');
      const dataTransfer = await page.evaluateHandle(() => {
        const dt = new DataTransfer();
        dt.items.add(new File(['dropped by hand'], 'dropped.txt', { type: 'text/plain' }));
        return dt;
      });
      await page.dispatchEvent('[data-testid=drop-zone]', 'drop', { dataTransfer });
      await row('dropped.txt').waitFor();
    });
  });

  it('uploads a large file in chunks and continues after a dropped connection', async () => {
    await step('chunked', async () => {
      const big = path.join(work, 'survey-large.dxf');
      writeFileSync(big, randomBytes(9 * 1024 * 1024 + 123)); // over the 8 MB multipart threshold
      let dropped = 0;
      // the first chunk after the start never gets an answer: the browser must ask the server where it stands
      await page.route('**/cloud/v5/upload/chunk?**', async (route) => {
        const offset = Number(new URL(route.request().url()).searchParams.get('offset'));
        if (offset > 0 && dropped === 0) {
          dropped++;
          await route.abort('connectionreset');
        } else await route.continue();
      });
      try {
        await page.goto(`${product.url}/yun/index`);
        await page.click('[data-testid=btn-upload]');
        await page.setInputFiles('[data-testid=file-input]', big);
        await row('survey-large.dxf').waitFor({ timeout: 90_000 });
      } finally {
        await page.unroute('**/cloud/v5/upload/chunk?**');
      }
      expect(dropped).toBe(1);
      await page.locator('[data-testid=upload-row][data-status=success]').filter({ hasText: 'survey-large.dxf' }).waitFor();
      await select('survey-large.dxf');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=btn-download]')]);
      const saved = path.join(work, 'large-downloaded.dxf');
      await download.saveAs(saved);
      expect(readFileSync(saved).equals(readFileSync(big))).toBe(true);
      // leave the root as the later steps expect it
      await select('survey-large.dxf');
      await page.click('[data-testid=btn-delete]');
      await confirmOk(page);
      await row('survey-large.dxf').waitFor({ state: 'detached' });
    });
  });

  it('renames, moves, deletes and restores', async () => {
    await step('organise', async () => {
      await page.goto(`${product.url}/yun/index`);
      await select(drawingName);
      await page.click('[data-testid=btn-rename]');
      await page.fill('[data-testid=name-input]', 'bad:name.dwg');
      await page.keyboard.press('Enter');
      await page.getByText('名称不能包含特殊字符', { exact: false }).first().waitFor();
      await page.fill('[data-testid=name-input]', 'floorplan-renamed.dwg');
      await page.keyboard.press('Enter');
      await row('floorplan-renamed.dwg').waitFor();

      // a refusal shows the server's message; the dialog stays open to correct the name
      await page.click('[data-testid=btn-new-folder]');
      await page.fill('[data-testid=name-input]', 'Project-A');
      await page.keyboard.press('Enter');
      await page.locator('.ant-message-error').getByText('该目录下已存在同名文件夹').waitFor();
      await page.fill('[data-testid=name-input]', 'Archive');
      await page.keyboard.press('Enter');
      await row('Archive').waitFor();
      await page.locator('[data-testid=name-input]').waitFor({ state: 'detached' });

      await select('floorplan-renamed.dwg');
      await page.click('[data-testid=btn-move]');
      const tree = page.locator('[data-testid=move-tree]');
      await tree.getByText('Project-A').click();
      await page.getByRole('button', { name: /确\s*定/ }).click();
      await row('floorplan-renamed.dwg').waitFor({ state: 'detached' });
      await row('Project-A').getByText('Project-A').click();
      await row('floorplan-renamed.dwg').waitFor();

      await select('floorplan-renamed.dwg');
      await page.click('[data-testid=btn-delete]');
      await confirmOk(page);
      await row('floorplan-renamed.dwg').waitFor({ state: 'detached' });
      await page.goto(`${product.url}/yun/trash`);
      await select('floorplan-renamed.dwg');
      await page.click('[data-testid=btn-restore]');
      await row('floorplan-renamed.dwg').waitFor({ state: 'detached' });
    });
  });

  it('downloads the restored file with the bytes that were uploaded', async () => {
    await step('download', async () => {
      await page.goto(`${product.url}/yun/drawing`);
      await select('floorplan-renamed.dwg');
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=btn-download]')]);
      const saved = path.join(work, 'downloaded.dwg');
      await download.saveAs(saved);
      expect(readFileSync(saved).equals(readFileSync(drawing))).toBe(true);
      expect(download.suggestedFilename()).toBe('floorplan-renamed.dwg');
    });
  });

  it('searches from the top bar and shows the results as a grid', async () => {
    await step('search', async () => {
      await page.goto(`${product.url}/yun/recent`);
      await shoot(page, 'desktop-zh-recent');
      const before = await page.locator('[data-testid=storage-value]').innerText();
      expect(before).not.toMatch(/^0(\.00)?B/); // the uploads count against the storage meter
      await page.locator('[data-testid=header-search] input').fill('plan');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/yun\/index\?q=plan&global=1/);
      await row('plan.dxf').waitFor(); // inside Project-A: found because the search covers all folders
      await page.locator('[data-testid=search-note]').waitFor();
      await page.getByTitle('缩略图').click();
      await page.locator('[data-testid="card-plan.dxf"]').waitFor();
      await shoot(page, 'desktop-zh-grid');
      await page.getByTitle('列表').click(); // the view choice is kept: back to the list for the next steps
      await row('plan.dxf').waitFor();
      // searching in the current folder only: the root holds no "plan"
      await page.locator('[data-testid=search-global]').click();
      await page.waitForURL((u) => u.searchParams.get('q') === 'plan' && !u.searchParams.has('global'));
      await row('plan.dxf').waitFor({ state: 'detached' });
      expect(await page.locator('[data-testid=search-global]').isChecked()).toBe(false);
    });
  });

  it('downloads a folder as a zip from the task panel', async () => {
    await step('zip', async () => {
      await page.goto(`${product.url}/yun/index`);
      await select('Project-A');
      await page.click('[data-testid=btn-download]');
      const panel = page.locator('[data-testid=task-panel]');
      await panel.locator('[data-testid=zip-row]').first().waitFor();
      await panel.getByRole('tab', { name: '下载', selected: true }).waitFor(); // the panel switched to the download tab
      await shoot(page, 'desktop-zh-zip');
      const save = panel.locator('[data-testid=zip-save]').first();
      await save.waitFor({ timeout: 60_000 }); // polled every 5 s until the zip is ready
      const [download] = await Promise.all([page.waitForEvent('download'), save.click()]);
      const saved = path.join(work, 'folder.zip');
      await download.saveAs(saved);
      const zip = readFileSync(saved);
      expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
      expect(zip.includes(Buffer.from('plan.dxf'))).toBe(true);
      expect(zip.includes(Buffer.from('note.txt'))).toBe(true);
      // closed, then shown again from the header
      await panel.getByRole('button', { name: 'close' }).click();
      await panel.waitFor({ state: 'detached' });
      await page.click('[data-testid=tasks-button]');
      await panel.locator('[data-testid=zip-row]').first().waitFor();
    });
  });

  it('shows a 404 page for an unknown address, with a way home', async () => {
    await step('404', async () => {
      await page.goto(`${product.url}/no/such/page`);
      await page.waitForURL(`${product.url}/404`);
      await page.getByText('页面不存在', { exact: true }).waitFor();
      await page.getByRole('button', { name: '返回首页' }).click();
      await page.waitForURL(`${product.url}/yun/recent`);
    });
  });

  it('switches to English and Korean', async () => {
    await step('languages', async () => {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=lang-switch]');
      await page.getByRole('menuitem', { name: 'English' }).click();
      await page.locator('[data-testid=nav]').getByText('All files').waitFor();
      await page.getByRole('button', { name: /New folder/ }).waitFor();
      await shoot(page, 'desktop-en');
      await page.click('[data-testid=lang-switch]');
      await page.getByRole('menuitem', { name: '한국어' }).click();
      await page.locator('[data-testid=nav]').getByText('모든 파일').waitFor();
      await page.reload();
      await page.locator('[data-testid=nav]').getByText('모든 파일').waitFor(); // the choice is kept
    });
  });

  it('does the core flow on a phone at /webH5', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      locale: 'en-US',
      acceptDownloads: true,
      // signed in (the ticket cookie), but without the language the desktop test chose
      storageState: { ...(await desktop.storageState()), origins: [] },
    });
    const m = await phone.newPage();
    try {
      await m.goto(`${product.url}/yun/recent`);
      await m.waitForURL(`${product.url}/webH5`); // chosen automatically on a phone
      await m.locator('[data-testid=h5-tabs]').waitFor();
      await m.click('[data-testid=h5-tab-upload]');
      await m.getByRole('button', { name: /上传文件$/ }).waitFor(); // zh by default
      const phoneFile = path.join(work, 'from-phone.dxf');
      writeFileSync(phoneFile, `0\nEOF\n${randomBytes(100).toString('hex')}`);
      await m.setInputFiles('[data-testid=h5-file-input]', phoneFile);
      const uploaded = m.locator('[data-testid=h5-upload-row][data-status=success]');
      await uploaded.waitFor({ timeout: 30_000 });
      expect(await uploaded.locator('[role=progressbar]').getAttribute('aria-valuenow')).toBe('100');
      await shoot(m, 'phone-upload');
      await m.click('[data-testid=h5-tab-user]');
      await m.locator('[data-testid=h5-lang]').getByText('English').click();
      await m.click('[data-testid=h5-tab-cloud]');
      await m.getByText('Cloud').first().waitFor();
      await m.locator('[data-testid="h5-row-from-phone.dxf"]').waitFor();
      await shoot(m, 'phone-cloud');
      await m.locator('[data-testid="h5-row-from-phone.dxf"]').click();
      await m.waitForURL(/\/webH5\/item\//);
      // a drawing opens in the viewer (this one is not a valid DXF: the spec's message), details one tap away
      await m.locator('[data-testid=viewer-error]').getByText('The drawing analysis failed!').waitFor();
      await m.click('[data-testid=h5-details]');
      await m.locator('[data-testid=h5-item-name]').getByText('from-phone.dxf').waitFor();
      await shoot(m, 'phone-item');
      const [download] = await Promise.all([m.waitForEvent('download'), m.click('[data-testid=h5-download]')]);
      const saved = path.join(work, 'phone-download.dxf');
      await download.saveAs(saved);
      expect(readFileSync(saved).equals(readFileSync(phoneFile))).toBe(true);
      await m.click('[data-testid=h5-rename]');
      await m.fill('[data-testid=name-input]', 'phone-renamed.dxf');
      await m.keyboard.press('Enter');
      await m.locator('[data-testid=h5-item-name]').getByText('phone-renamed.dxf').waitFor();
      await m.click('[data-testid=h5-delete]');
      await confirmOk(m, 'OK');
      await m.waitForURL(/\/webH5\/cloud/);
      await m.locator('[data-testid="h5-row-phone-renamed.dxf"]').waitFor({ state: 'detached' });
      // into a folder, and upload there
      await m.locator('[data-testid="h5-row-Project-A"]').click();
      await m.waitForURL(/\/webH5\/cloud\?folderId=/);
      const folderUrl = m.url();
      await m.click('[data-testid=h5-upload-here]');
      await m.locator('[data-testid=h5-upload-target]').getByText('Project-A').waitFor();
      const inFolder = path.join(work, 'site-photo-notes.txt');
      writeFileSync(inFolder, 'taken on site');
      await m.setInputFiles('[data-testid=h5-file-input]', inFolder);
      await m.locator('[data-testid=h5-upload-row][data-status=success]').filter({ hasText: 'site-photo-notes.txt' }).waitFor({ timeout: 30_000 });
      await m.goto(folderUrl);
      await m.locator('[data-testid="h5-row-site-photo-notes.txt"]').waitFor();
      await m.locator('[data-testid="h5-row-plan.dxf"]').waitFor();
      await m.click('[data-testid=h5-tab-user]');
      await m.locator('[data-testid=h5-user-name]').getByText('Alice').waitFor();
      await shoot(m, 'phone-user');
      // the desktop layout, asked for on the phone, still works at 375 px: menu in a drawer, toolbar wraps
      await m.getByRole('button', { name: /Desktop version/ }).click();
      await m.waitForURL(`${product.url}/yun/recent`);
      await m.locator('[data-testid=btn-upload]').waitFor();
      await shoot(m, 'phone-desktop-layout');
      await m.getByRole('button', { name: 'menu' }).click();
      await m.locator('.ant-drawer [data-testid=nav]').getByText('Recycle bin').click();
      await m.waitForURL(`${product.url}/yun/trash`);
      await m.locator('[data-testid="row-phone-renamed.dxf"]').waitFor();
      const overflow = await m.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0); // nothing sticks out sideways
    } catch (e) {
      await shoot(m, 'failed-phone');
      throw e;
    } finally {
      await phone.close();
    }
  });

  it('empties the recycle bin after a confirmation', async () => {
    await step('empty-trash', async () => {
      await page.goto(`${product.url}/yun/trash`);
      await row('phone-renamed.dxf').waitFor(); // deleted on the phone
      await page.click('[data-testid=btn-empty-trash]');
      await confirmOk(page, /확\s*인/);
      await row('phone-renamed.dxf').waitFor({ state: 'detached' });
      expect(await page.locator('[data-testid^=row-]').count()).toBe(0);
    });
  });

  it('signs out from the user menu', async () => {
    await step('logout', async () => {
      await page.goto(`${product.url}/yun/recent`);
      await page.hover('[data-testid=user-menu]');
      await page.locator('[data-testid=user-name]').getByText('Alice').waitFor();
      await page.getByRole('menuitem', { name: /로그아웃/ }).click();
      await page.waitForURL((u) => !u.href.startsWith(`${product.url}/yun`));
      // the session is gone: the drive sends the browser to the login site again
      await page.goto(`${product.url}/yun/recent`);
      await page.waitForURL(/\/interaction\//);
    });
  });
});
