import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { launchBrowser, shoot, startProduct, registerThroughLoginSite } from './harness.ts';

/**
 * Call style 3 in the browser: the font page talks to the signed twins (/secure/cloud/v5/font/…) through WebCrypto,
 * with the secret of getRsaKey (style 4) fetched once; nothing of the call is readable on the wire, and a request
 * sent again is refused as a replay.
 */
describe('the font calls through call style 3 in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const signed: Request[] = [];
  const rsaKeyCalls: string[] = [];
  const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-signed-'));
  const fontFile = path.join(work, 'SignedSans.ttf');
  writeFileSync(fontFile, Buffer.concat([Buffer.from('0001000000010010000300000000', 'hex'), Buffer.from('head'), Buffer.alloc(12), randomBytes(64)]));

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'zh-CN' });
    page = await context.newPage();
    page.on('request', (r) => {
      if (r.url().includes('/secure/')) signed.push(r);
      if (r.url().includes('/global/v5/common/getRsaKey')) rsaKeyCalls.push(r.url());
    });
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const row = (name: string) => page.locator(`[data-testid="font-row-${name}"]`);

  it('lists, uploads and renames a font, every signed call sealed and answered sealed', async () => {
    try {
      await registerThroughLoginSite(page, product.url, '/yun/font', 'signed@example.com', 'Signer');
      await page.locator('[data-testid=fonts-empty]').waitFor();
      await page.setInputFiles('[data-testid=font-upload-input]', fontFile);
      await row('SignedSans.ttf').waitFor({ timeout: 30_000 });

      await page.click('[data-testid="font-actions-SignedSans.ttf"]');
      await page.locator('.ant-dropdown:not(.ant-dropdown-hidden) [data-testid="font-action-rename"]').click();
      await page.locator('[data-testid=font-rename-input]').fill('Renamed');
      await page.locator('.ant-modal').getByRole('button', { name: /确\s*定/ }).click();
      await row('Renamed.ttf').waitFor();
      await shoot(page, 'signed-fonts-renamed');
    } catch (e) {
      await shoot(page, 'signed-fonts-failed');
      throw e;
    }

    const paths = signed.map((r) => new URL(r.url()).pathname);
    expect(paths).toContain('/secure/cloud/v5/font/list');
    expect(paths).toContain('/secure/cloud/v5/font/rename');
    // the secret was asked for once and cached
    expect(rsaKeyCalls).toHaveLength(1);
    for (const r of signed) {
      const body = r.postDataJSON();
      expect(Object.keys(body).sort()).toEqual(['key', 'sign']);
      expect(r.postData()).not.toContain('Renamed');
      expect(r.headers()['x-salt']).toMatch(/^[A-Za-z0-9]{6}$/);
      const answer = await (await r.response())!.json();
      expect(Object.keys(answer).sort()).toEqual(['key', 'sign']);
    }
  });

  it('a signed request sent again is refused as a replay; a tampered one is 签名失败', async () => {
    const rename = signed.find((r) => r.url().includes('/secure/cloud/v5/font/rename'))!;
    const headers = { ...rename.headers() };
    const again = await page.request.post(rename.url(), { headers, data: rename.postDataJSON() });
    expect((await again.json()).bizData.code).toBe('sign.replayed');
    const body = rename.postDataJSON();
    const tampered = await page.request.post(rename.url(), { headers: { ...headers, 'x-salt': 'Zz9Zz9', 'accept-language': 'zh' }, data: body });
    expect((await tampered.json()).msg).toBe('签名失败');
  });
});
