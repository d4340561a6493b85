import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { shoot } from './harness.ts';
import { IPHONE_UA, postApi, serveWebAppFrom, uploadToDrive, waitFor3d } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';
import { revitFile } from '../packages/model3d/src/fixtures/revit.ts';
import { stepAssembly } from '../packages/model3d/src/fixtures/step.ts';

/**
 * A Revit file and a failed 3D conversion in a real browser (issue 21): the drive's button on an .rvt opens /view3d in a
 * new tab showing its preview, version and Project Information (client, number, address) with the advice to export
 * IFC, no conversion asked; at 390 px (a phone) the same page fits, and the list of conversions shows a failed
 * conversion's whole message (the server's words, not a code). Any console error fails.
 */
describe('Revit information and bad input at desktop and phone width', () => {
  let s: SignedIn;
  const work = mkdtempSync(path.join(os.tmpdir(), 'view3d-revit-'));
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => m.type() === 'error' && errors.push(`${p.url()}: ${m.text()} (${m.location().url})`));
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
  };
  const ids: Record<string, string> = {};
  const project = { 'Client Name': 'Harbour Holdings & Partners Ltd.', 'Project Number': 'P-2026-017', 'Project Address': '1 Harbour Road\nWan Chai, Hong Kong' };

  beforeAll(async () => {
    const png = await sharp({ create: { width: 160, height: 100, channels: 3, background: { r: 90, g: 140, b: 200 } } }).png().toBuffer();
    writeFileSync(path.join(work, 'Office Tower.rvt'), revitFile({ png, title: 'Office Tower', project }));
    // a STEP cut short: the conversion fails with the spec's message
    writeFileSync(path.join(work, 'cut.stp'), stepAssembly('Rack', [{ name: 'Shelf', min: [0, 0, 0], max: [1, 2, 3], at: [0, 0, 0] }]).slice(0, 900));
    s = await signedInDesktop('view3d-revit@example.com', 'Revit');
    watch(s.page);
    // four more, failed after it: the list is longer than the task panel's 300 px box, cut.stp (the oldest) last
    const step = readFileSync(path.join(work, 'cut.stp'), 'utf8');
    for (let i = 1; i <= 4; i++) writeFileSync(path.join(work, `cut${i}.stp`), step.slice(0, 900 - i * 10));
    const names = ['Office Tower.rvt', 'cut.stp', 'cut1.stp', 'cut2.stp', 'cut3.stp', 'cut4.stp'];
    for (const f of names) await uploadToDrive(s.page, s.product.url, path.join(work, f));
    for (const i of (await postApi(s.page, `${s.product.url}/cloud/v5/union/list`, { parentId: '0' })).list as Array<{ id: string; name: string }>) ids[i.name] = i.id;
    for (const f of names.slice(1)) expect((await waitFor3d(s.page, s.product.url, ids[f], { start: true })).code).toBe('model3d.openFailed');
    errors.length = 0; // the signed-out first visit answers 401 before the login site
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('desktop: Revit info from /yun/threeModel opens the information in a new tab, no conversion asked', async () => {
    const { page } = s;
    const asked: string[] = [];
    page.context().on('request', (r) => r.url().includes('transformBatch3D') && asked.push(r.url()));
    try {
      await page.goto(`${s.product.url}/yun/threeModel`);
      await page.locator('[data-testid="row-Office Tower.rvt"] input[type=checkbox]').check();
      const button = page.locator('[data-testid=btn-model3d]');
      expect(await button.textContent()).toContain('Revit info');
      const [tab] = await Promise.all([page.context().waitForEvent('page'), button.click()]);
      watch(tab);
      await tab.locator('[data-testid=revit-info]').waitFor({ timeout: 30_000 });
      expect(new URL(tab.url()).searchParams.get('key')).toBe(ids['Office Tower.rvt']);
      const details = (await tab.locator('[data-testid=revit-details]').textContent())!;
      for (const v of ['Client name', project['Client Name'], 'Project number', 'P-2026-017', 'Project address', '1 Harbour Road', 'Wan Chai, Hong Kong', '2021']) expect(details).toContain(v);
      expect(await tab.locator('[data-testid=revit-advice]').textContent()).toContain('export it to IFC from Revit');
      // the preview Revit embedded, as the file's thumbnail
      await tab.waitForFunction(() => (document.querySelector('[data-testid=revit-preview]') as HTMLImageElement | null)?.naturalWidth === 160, undefined, { timeout: 60_000 });
      expect(asked).toEqual([]);
      await tab.close();
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'view3d-revit-desktop-failure');
      throw e;
    }
  }, 120_000);

  it('phone width (390 px): the Revit page fits in Chinese; the failed conversion\'s whole message shows in the list of conversions', async () => {
    const phone = await s.browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true, storageState: await s.page.context().storageState() });
    await serveWebAppFrom(phone, s.product.url, s.web);
    const m = await phone.newPage();
    watch(m);
    const overflow = () => m.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);
    try {
      await m.goto(`${s.product.url}/view3d?key=${encodeURIComponent(ids['Office Tower.rvt'])}`);
      await m.evaluate(() => localStorage.setItem('cadcloud.lang', 'zh'));
      await m.reload();
      await m.locator('[data-testid=revit-info]').waitFor({ timeout: 30_000 });
      const details = (await m.locator('[data-testid=revit-details]').textContent())!;
      for (const v of ['客户名称', project['Client Name'], '项目编号', '项目地址']) expect(details).toContain(v);
      expect(await m.locator('[data-testid=revit-advice]').textContent()).toContain('IFC');
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shoot(m, 'view3d-revit-phone');

      await m.goto(`${s.product.url}/webH5/transformer`);
      const row = m.locator('[data-testid=transformer-3d] [data-testid=model3d-row][data-name="cut.stp"][data-status="2"]');
      await row.waitFor({ timeout: 30_000 });
      const msg = row.locator('[data-testid=model3d-error]');
      expect(await msg.textContent()).toBe('3D模型转换失败，无法打开，请联系客服');
      // the whole message inside its card, not under the fold of a box that scrolls on its own
      const [box, card] = [await msg.boundingBox(), await m.locator('[data-testid=transformer-3d]').boundingBox()];
      expect(box!.y + box!.height).toBeLessThanOrEqual(card!.y + card!.height);
      const clipped = await msg.evaluate((el) => {
        for (let p = el.parentElement; p; p = p.parentElement) if (p.scrollHeight > p.clientHeight + 1 && getComputedStyle(p).overflowY !== 'visible' && p !== document.scrollingElement && p !== document.body) return p.className;
        return null;
      });
      expect(clipped).toBeNull();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await shoot(m, 'model3d-failed-phone');
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(m, 'view3d-revit-phone-failure');
      throw e;
    } finally {
      await phone.close();
    }
  }, 120_000);
});
