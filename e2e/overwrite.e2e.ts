import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { shoot } from './harness.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import { serveWebAppFrom } from './page-helpers.ts';

/** A small drawing whose one text is `label`: the same name, other bytes per label. */
const drawing = (label: string) =>
  Buffer.from(writeAsciiDxf({ layers: ['0'], entities: [{ type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 20], [40, 8], [1, label]] }] }));


/** An API call from the signed-in page (its session cookie). */
const api = (p: Page, url: string, data: object) =>
  p.evaluate(async ([u, d]) => (await (await fetch(u as string, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: d }), credentials: 'same-origin' })).json()).bizData, [url, data] as const);

describe('upload over an existing file in a real browser', () => {
  let product: SignedIn['product'];
  let browser: Browser;
  let page: Page;
  let web = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-overwrite-'));
  // the same name from three places on disk, three contents
  const files = ['one', 'two', 'three', 'four'].map((dir, i) => {
    mkdirSync(path.join(work, dir));
    const p = path.join(work, dir, 'a.dxf');
    writeFileSync(p, drawing(`Rev ${i + 1}`));
    return p;
  });
  const row = (name: string) => page.locator(`[data-testid="row-${name}"]`);
  const names = async () => (await api(page, '/cloud/v5/union/list', { parentId: '0' })).list.map((i: { name: string }) => i.name).sort();

  let session: SignedIn | undefined;
  beforeAll(async () => {
    session = await signedInDesktop('overwrite@example.com', 'Otto');
    ({ product, browser, page, web } = session);
  }, 120_000);
  afterAll(async () => {
    await session?.close();
  });

  async function step<T>(p: Page, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `overwrite-failed-${name}`);
      throw e;
    }
  }
  async function uploadFromDialog(file: string) {
    await page.click('[data-testid=btn-upload]');
    await page.setInputFiles('[data-testid=file-input]', file);
  }

  it('a second a.dxf uploaded as a new version: the drive shows one a.dxf, its version page two versions', async () => {
    await step(page, 'version', async () => {
      await uploadFromDialog(files[0]);
      await row('a.dxf').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await uploadFromDialog(files[1]);
      const dialog = page.locator('.ant-modal:has([data-testid=conflict-dialog])');
      await dialog.waitFor();
      await dialog.getByText('"a.dxf" is already in this folder.', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Upload as a new version' }).waitFor();
      await dialog.getByRole('button', { name: 'Keep both (rename)' }).waitFor();
      await dialog.getByRole('button', { name: 'Skip' }).waitFor();
      await new Promise((r) => setTimeout(r, 500)); // the zoom-in animation
      await shoot(page, 'overwrite-conflict-dialog');
      await page.click('[data-testid=conflict-version]');
      await dialog.waitFor({ state: 'hidden' });
      await page.locator('[data-testid=upload-row][data-status=success]').nth(1).waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      // the list refreshes after the upload: still one a.dxf, no "a (1).dxf"
      await page.click('[aria-label="Refresh"]');
      await row('a.dxf').waitFor();
      expect(await page.locator('[data-testid^="row-a"]').count()).toBe(1);
      expect(await names()).toEqual(['a.dxf']);
      await row('a.dxf').locator('input[type=checkbox]').check();
      await page.click('[data-testid=btn-versions]');
      await page.waitForURL(/\/yun\/version\/[^/]+$/);
      await page.locator('[data-testid="version-row-2"]').waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-testid^="version-row-"]').count()).toBe(2);
      await page.locator('[data-testid="version-row-2"] [data-testid=version-latest]').waitFor();
      await page.locator('[data-testid="version-row-2"]').getByText('Overwrite upload', { exact: true }).waitFor();
      await page.locator('[data-testid="version-row-1"]').getByText('Create drawing', { exact: true }).waitFor();
      await shoot(page, 'overwrite-versions');
    });
  });

  it('"Keep both (rename)" adds a (1).dxf; "Skip" uploads nothing', async () => {
    await step(page, 'rename-skip', async () => {
      await page.goto(`${product.url}/yun/index`);
      await row('a.dxf').waitFor();
      const dialog = page.locator('.ant-modal:has([data-testid=conflict-dialog])');
      // the question's buttons only once its zoom-in animation is over (a click during it can land on nothing)
      const answer = async (which: 'rename' | 'skip') => {
        await dialog.waitFor();
        await new Promise((r) => setTimeout(r, 500));
        await dialog.locator(`[data-testid=conflict-${which}]`).click();
        await dialog.waitFor({ state: 'hidden' });
      };
      await uploadFromDialog(files[2]);
      await answer('rename');
      await row('a (1).dxf').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await uploadFromDialog(files[3]);
      await answer('skip');
      await new Promise((r) => setTimeout(r, 1500));
      expect(await names()).toEqual(['a (1).dxf', 'a.dxf']);
      const a = (await api(page, '/cloud/v5/union/list', { parentId: '0' })).list.find((i: { name: string }) => i.name === 'a.dxf');
      expect(a.version).toBe(2);
    });
  });

  it('on a phone (375 px) the upload page asks too; a new version is made there', async () => {
    const phone = await browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      storageState: await page.context().storageState(),
    });
    await serveWebAppFrom(phone, product.url, web);
    await phone.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const m = await phone.newPage();
    try {
      await m.goto(`${product.url}/webH5/upload`);
      await m.locator('[data-testid=h5-upload-target]').waitFor();
      await m.setInputFiles('[data-testid=h5-file-input]', files[3]);
      const dialog = m.locator('.ant-modal:has([data-testid=conflict-dialog])');
      await dialog.waitFor();
      await m.locator('[data-testid=conflict-version]').waitFor();
      await new Promise((r) => setTimeout(r, 500)); // the zoom-in animation
      const box = await dialog.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(375);
      await shoot(m, 'overwrite-phone-conflict');
      await m.click('[data-testid=conflict-version]');
      await m.locator('[data-testid=h5-upload-row][data-status=success]').waitFor({ timeout: 60_000 });
      const list = (await api(m, '/cloud/v5/union/list', { parentId: '0' })).list;
      expect(list.map((i: { name: string }) => i.name).sort()).toEqual(['a (1).dxf', 'a.dxf']);
      const a = list.find((i: { name: string }) => i.name === 'a.dxf');
      expect(a.version).toBe(3);
      const h = await api(m, '/cloud/v5/version/history', { fileId: a.id });
      expect(h.list.map((v: { version: number; description: string }) => [v.version, v.description])).toEqual([[3, 'overwrite upload'], [2, 'overwrite upload'], [1, 'create drawing']]);
      expect(await m.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    } catch (e) {
      await shoot(m, 'overwrite-failed-phone');
      throw e;
    } finally {
      await phone.close();
    }
  });
});
