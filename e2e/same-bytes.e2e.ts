import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { shoot } from './harness.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import { IPHONE_UA, serveWebAppFrom } from './page-helpers.ts';

/**
 * Uploading a file whose bytes are already the file of that name in the folder: the dialog once offered "keep both",
 * which then failed with "the same file cannot be uploaded twice". Now it says the file is already there and offers
 * to open it, on the desktop and on the phone.
 */
describe('uploading the same bytes again in a real browser', () => {
  let product: SignedIn['product'];
  let browser: Browser;
  let page: Page;
  let web = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-same-'));
  const file = path.join(work, 'same.dxf');
  writeFileSync(file, writeAsciiDxf({ layers: ['0'], entities: [{ type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 20], [40, 8], [1, 'same']] }] }));
  const dialog = (p: Page) => p.locator('.ant-modal:has([data-testid=conflict-dialog])');

  let session: SignedIn | undefined;
  beforeAll(async () => {
    session = await signedInDesktop('same@example.com', 'Sam');
    ({ product, browser, page, web } = session);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('desktop: "already here" with "Open it", no "Keep both"; Open it opens the existing file', async () => {
    try {
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', file);
      await page.locator('[data-testid="row-same.dxf"]').waitFor({ timeout: 60_000 });
      const id = await page.evaluate(async () => (await (await fetch('/cloud/v5/union/list', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { parentId: '0' } }) })).json()).bizData.list[0].id);
      await page.keyboard.press('Escape');
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', file);
      await dialog(page).waitFor();
      await dialog(page).getByText('This file is already here').waitFor();
      await dialog(page).getByText('"same.dxf" in this folder is the very same file', { exact: false }).waitFor();
      expect(await dialog(page).locator('[data-testid=conflict-rename]').count()).toBe(0);
      expect(await dialog(page).locator('[data-testid=conflict-version]').count()).toBe(0);
      await new Promise((r) => setTimeout(r, 500)); // the zoom-in animation
      await shoot(page, 'same-bytes-dialog');
      await dialog(page).locator('[data-testid=conflict-open]').click();
      await page.waitForURL(`${product.url}/yun/view/${id}`);
      // nothing was queued, so nothing failed
      expect(await page.locator('[data-testid=upload-row][data-status=failed]').count()).toBe(0);
    } catch (e) {
      await shoot(page, 'same-bytes-failed');
      throw e;
    }
  });

  it('phone (375 px): the upload page says so too and opens the file', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA, storageState: await page.context().storageState() });
    await serveWebAppFrom(phone, product.url, web);
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await phone.newPage();
    try {
      await m.goto(`${product.url}/webH5/upload`);
      await m.locator('[data-testid=h5-upload-target]').waitFor();
      await m.setInputFiles('[data-testid=h5-file-input]', file);
      await dialog(m).getByText('This file is already here').waitFor();
      expect(await dialog(m).locator('[data-testid=conflict-rename]').count()).toBe(0);
      await new Promise((r) => setTimeout(r, 500));
      const box = (await dialog(m).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(375);
      await m.locator('[data-testid=conflict-open]').click();
      await m.waitForURL(/\/webH5\/item\/[^/]+$/);
      expect(await m.locator('[data-testid=h5-upload-row][data-status=failed]').count()).toBe(0);
    } catch (e) {
      await shoot(m, 'same-bytes-failed-phone');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
