import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite, confirmOk } from './harness.ts';

/** A small drawing whose one text is `label` (so a preview shows which version it is). */
const drawing = (label: string) =>
  Buffer.from(writeAsciiDxf({ layers: ['0', 'Walls'], entities: [{ type: 'LINE', pairs: [[8, 'Walls'], [62, 1], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] }, { type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 20], [40, 8], [1, label]] }] }));

describe('version history in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  let fileId = '';
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-versions-'));
  const first = path.join(work, 'tower.dxf');
  const second = path.join(work, 'tower-rev-b.dxf');
  writeFileSync(first, drawing('Alpha'));
  writeFileSync(second, drawing('Bravo'));

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    page = await ctx.newPage();
    await registerThroughLoginSite(page, product.url, '/yun/index', 'versions@example.com', 'Vicky');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  async function step<T>(p: Page, name: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `versions-failed-${name}`);
      throw e;
    }
  }
  const row = (n: number) => page.locator(`[data-testid="version-row-${n}"]`);
  async function rowAction(n: number, action: string) {
    await page.click(`[data-testid="version-actions-${n}"]`);
    const item = page.locator(`.ant-dropdown:not(.ant-dropdown-hidden) [data-testid="version-action-${action}"]`);
    await item.waitFor();
    await item.click();
  }

  it('uploads a drawing and opens its version history from the drive toolbar: one row, V1, latest', async () => {
    await step(page, 'open', async () => {
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', first);
      const driveRow = page.locator('[data-testid="row-tower.dxf"]');
      await driveRow.waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await driveRow.locator('input[type=checkbox]').check();
      await page.click('[data-testid=btn-versions]');
      await page.waitForURL(/\/yun\/version\/[^/]+$/);
      fileId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
      await row(1).waitFor();
      await row(1).locator('[data-testid=version-latest]').waitFor();
      await row(1).getByText('Create drawing', { exact: true }).waitFor();
      expect(await page.locator('[data-testid^="version-row-"]').count()).toBe(1);
      expect(await page.locator('[data-testid=version-compare]').isDisabled()).toBe(true);
    });
  });

  it('uploads a new version from the version page: two rows, the new one latest', async () => {
    await step(page, 'upload', async () => {
      await page.setInputFiles('[data-testid=version-upload-input]', second);
      await row(2).waitFor({ timeout: 60_000 });
      expect(await page.locator('[data-testid^="version-row-"]').count()).toBe(2);
      await row(2).locator('[data-testid=version-latest]').waitFor();
      expect(await row(1).locator('[data-testid=version-latest]').count()).toBe(0);
      await row(2).getByText('tower-rev-b.dxf', { exact: true }).waitFor();
      await row(2).getByText('Overwrite upload', { exact: true }).waitFor();
      // two drawing versions selected: compare is offered, and goes to the compare page of these two
      await row(1).locator('input[type=checkbox]').check();
      await row(2).locator('input[type=checkbox]').check();
      expect(await page.locator('[data-testid=version-compare]').isDisabled()).toBe(false);
      const h = await (await page.request.post(`${product.url}/cloud/v5/version/history`, { data: { data: { fileId }, clientInfo: { clientType: 'Web_PC' } } })).json();
      const [v2, v1] = h.bizData.list.map((v: { versionId: string }) => v.versionId);
      await page.click('[data-testid=version-compare]');
      await page.waitForURL(/\/yun\/version\/[^/]+\/compare\?/);
      const u = new URL(page.url());
      // older first: what changed from a to b
      expect([decodeURIComponent(u.pathname.split('/')[3]), u.searchParams.get('a'), u.searchParams.get('b')]).toEqual([fileId, v1, v2]);
      await page.goBack();
      await row(2).waitFor();
    });
  });

  it('edits a remark', async () => {
    await step(page, 'remark', async () => {
      await rowAction(1, 'remark');
      await page.fill('[data-testid=version-remark-input]', 'issued for tender');
      await page.locator('.ant-modal').getByRole('button', { name: /OK/ }).click();
      await page.locator('[data-testid=version-remark-1]').getByText('issued for tender').waitFor();
    });
  });

  it('rolls back to V1 after confirming: a new latest V3 "Rollback from V1", nothing lost', async () => {
    await step(page, 'rollback', async () => {
      await rowAction(1, 'rollback');
      await confirmOk(page, /OK/);
      await row(3).waitFor();
      await row(3).locator('[data-testid=version-latest]').waitFor();
      await row(3).getByText('Rollback from V1', { exact: true }).waitFor();
      expect(await page.locator('[data-testid^="version-row-"]').count()).toBe(3);
      const h = await (await page.request.post(`${product.url}/cloud/v5/version/history`, { data: { data: { fileId }, clientInfo: { clientType: 'Web_PC' } } })).json();
      expect(h.bizData.list.map((v: { version: number; remark: string }) => [v.version, v.remark])).toEqual([[3, ''], [2, ''], [1, 'issued for tender']]);
      // the drive's file is the rolled-back content
      const info = await (await page.request.post(`${product.url}/cloud/v5/file/getFileInfo`, { data: { data: { fileId }, clientInfo: { clientType: 'Web_PC' } } })).json();
      expect(info.bizData.fileMD5).toBe(h.bizData.list[2].fileMD5);
    });
  });

  it('previews an earlier version in the viewer', async () => {
    await step(page, 'preview', async () => {
      const sceneAnswer = page.waitForResponse((r) => r.url().includes('/cloud/v5/drawing/scene') && r.url().includes('versionId='));
      await page.click('[data-testid=version-preview-2]');
      await page.waitForURL(/\/yun\/view\/[^?]+\?versionId=/);
      const res = await sceneAnswer;
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toContain('application/vnd.cadcloud.scene');
      await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
      await page.getByText('tower-rev-b.dxf · V2').first().waitFor();
      // V2's text is in the drawing shown, V1's is not
      await page.click('[data-testid=viewer-btn-find]');
      await page.fill('[data-testid=viewer-find] input', 'Bravo');
      await page.locator('[data-testid=viewer-find-result]').getByText('Bravo').waitFor();
      await page.fill('[data-testid=viewer-find] input', 'Alpha');
      await page.waitForTimeout(300);
      expect(await page.locator('[data-testid=viewer-find-result]').count()).toBe(0);
      await shoot(page, 'versions-preview');
    });
  });

  it('works at phone width: reached from the file page, the compact list with its row actions', async () => {
    const ctx = page.context();
    const phone = await ctx.newPage();
    await phone.setViewportSize({ width: 375, height: 740 });
    await step(phone, 'phone', async () => {
      // other browser tests on this machine rebuild the shared apps/web/dist: while they do, a fresh page load
      // answers 404 for a moment, so load again until the app is there
      for (let i = 0; i < 40; i++) {
        await phone.goto(`${product.url}/webH5/item/${encodeURIComponent(fileId)}`);
        if (await phone.locator('#root').count()) break;
        await phone.waitForTimeout(3000);
      }
      // the phone's file page (a drawing opens in the viewer; its details hold the actions)
      await phone.click('[data-testid=h5-details]');
      await phone.click('[data-testid=btn-versions]');
      await phone.waitForURL(/\/webH5\/version\//);
      await phone.locator('[data-testid="version-row-3"]').waitFor();
      await phone.locator('[data-testid="version-actions-1"]').waitFor();
      // size, time and remark go under the name when their columns fold away
      await phone.locator('[data-testid="version-narrow-1"]').getByText(/issued for tender/).waitFor();
      await phone.locator('[data-testid="version-narrow-3"]').getByText(/Rollback from V1/).waitFor();
      // nothing wider than the screen
      const wide = await phone.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(375 + 1);
      await shoot(phone, 'versions-phone');
    });
    await phone.close();
  });
});
