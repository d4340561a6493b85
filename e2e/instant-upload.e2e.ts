import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';

/**
 * Instant upload in a real browser (issue 14 item 1): bytes another user stored are placed in B's drive without being
 * sent only after the page proves to hold them (it hashes the asked ranges of the local File); bytes nobody has go up
 * as usual; the user's own bytes are placed at once.
 */
describe('instant upload with proof of possession in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let alice: Page;
  let bob: Page;
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-instant-'));
  // large enough to be asked in ranges rather than whole
  const common = Buffer.concat([Buffer.from('0\nSECTION\n2\nENTITIES\n0\nENDSEC\n0\nEOF\n999\n'), randomBytes(300_000)]);
  const aliceFile = path.join(work, 'survey.dxf');
  const bobDir = path.join(work, 'bob');
  const bobFile = path.join(bobDir, 'my copy.dxf');
  const bobNew = path.join(bobDir, 'only bob.dxf');

  beforeAll(async () => {
    writeFileSync(aliceFile, common);
    mkdirSync(bobDir);
    writeFileSync(bobFile, common);
    writeFileSync(bobNew, randomBytes(50_000));
    product = await startProduct();
    browser = await launchBrowser();
    const a = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await a.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    alice = await a.newPage();
    await registerThroughLoginSite(alice, product.url, '/yun/index', 'alice@example.com', 'Alice');
    const b = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await b.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    bob = await b.newPage();
    await registerThroughLoginSite(bob, product.url, '/yun/index', 'bob@example.com', 'Bob');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  /** Uploads through the dialog; resolves with the row's final status and the detectUpload bodies the page sent. */
  async function uploadVia(page: Page, file: string) {
    const asked: any[] = [];
    const watch = (r: import('playwright-core').Request) => {
      if (r.url().includes('/cloud/v5/file/detectUpload')) asked.push(r.postDataJSON()?.data);
    };
    page.on('request', watch);
    try {
      await page.goto(`${product.url}/yun/index`);
      await page.click('[data-testid=btn-upload]');
      await page.setInputFiles('[data-testid=file-input]', file);
      const row = page.locator('[data-testid=upload-row]:is([data-status=success], [data-status=instant], [data-status=failed])').filter({ hasText: path.basename(file) });
      await row.waitFor({ timeout: 60_000 });
      return { status: await row.getAttribute('data-status'), asked };
    } finally {
      page.off('request', watch);
    }
  }

  const listOf = async (page: Page) => (await (await page.request.post(`${product.url}/cloud/v5/union/list`, { data: { data: { parentId: '0' }, clientInfo: { clientType: 'Web_PC' } } })).json()).bizData.list as { name: string; size: number; fileMD5: string }[];

  it('A uploads; B\'s copy of the same bytes is placed after the page proves it holds them; B\'s new file goes up; A\'s second copy is instant at once', async () => {
    try {
      const first = await uploadVia(alice, aliceFile);
      expect(first.status).toBe('success');

      const copy = await uploadVia(bob, bobFile);
      expect(copy.status).toBe('instant');
      // asked, challenged, proved: the second question carries the proof
      expect(copy.asked).toHaveLength(2);
      expect(copy.asked[0].possession).toBeUndefined();
      expect(copy.asked[1].possession).toMatchObject({ token: expect.any(String), proof: expect.stringMatching(/^[0-9a-f]{32}$/) });
      const mine = await listOf(bob);
      expect(mine.find((i) => i.name === 'my copy.dxf')).toMatchObject({ size: common.length });

      const fresh = await uploadVia(bob, bobNew);
      expect(fresh.status).toBe('success');
      expect(fresh.asked).toHaveLength(2); // challenged like any bytes, the proof fails, then a normal upload

      writeFileSync(path.join(work, 'survey again.dxf'), common);
      const again = await uploadVia(alice, path.join(work, 'survey again.dxf'));
      expect(again.status).toBe('instant');
      expect(again.asked).toHaveLength(1); // her own bytes: no challenge
      await shoot(bob, 'instant-upload-bob');
    } catch (e) {
      await shoot(alice, 'instant-upload-failed-alice');
      await shoot(bob, 'instant-upload-failed-bob');
      throw e;
    }
  });
});
