import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startProduct } from './harness.ts';
import { IPHONE_UA, phoneOverflow, serveWebAppFrom, snapshotWebApp } from './page-helpers.ts';
import { rmSync } from 'node:fs';

// a 1×1 PNG: the screenshot a visitor attaches
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * Issue 23: a visitor sends feedback from /feedback on a 390 px phone: the spec's validation messages (e-mail
 * required and valid, content required) before anything is sent, then the success state; the operator's list has
 * it with the page it came from and the screenshot. The contact and declaration pages show the built-in texts.
 */
describe('feedback and the information pages in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let web = '';
  beforeAll(async () => {
    web = await snapshotWebApp();
    product = await startProduct();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
    rmSync(web, { recursive: true, force: true });
  });

  it('a visitor on a phone: validation messages, then sent, stored with the page and the screenshot', async () => {
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, userAgent: IPHONE_UA, isMobile: true, hasTouch: true });
    await serveWebAppFrom(ctx, product.url, web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(`${product.url}/feedback?from=${encodeURIComponent('/yun/drawing')}`);
    await page.getByTestId('feedback-submit').click();
    await expect.poll(() => page.getByTestId('feedback-form').innerText()).toContain('Please enter your e-mail');
    await page.getByTestId('feedback-email').fill('not-an-address');
    await page.getByTestId('feedback-submit').click();
    await expect.poll(() => page.getByTestId('feedback-form').innerText()).toContain('E-mail format is incorrect');
    await page.getByTestId('feedback-email').fill('visitor@example.com');
    await page.getByTestId('feedback-submit').click();
    await expect.poll(() => page.getByTestId('feedback-form').innerText()).toContain('Please enter your feedback');
    expect(await page.getByTestId('feedback-page').innerText()).toBe('/yun/drawing');
    await page.getByTestId('feedback-content').fill('The layer list is too narrow on my phone.');
    await page.getByTestId('feedback-screenshot').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: PNG });
    await page.getByTestId('feedback-submit').click();
    await page.getByTestId('feedback-sent').waitFor();
    expect(await phoneOverflow(page)).toBeLessThanOrEqual(15);
    expect(errors).toEqual([]);
    await ctx.close();
    const { runAdmin } = await import('../apps/server/src/admin/admin.cli.ts');
    const list = (await runAdmin(['feedback', 'list'], { ...process.env, DATA_DIR: product.dataDir })) as any[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ email: 'visitor@example.com', content: 'The layer list is too narrow on my phone.', pageUrl: '/yun/drawing', uid: null });
    expect(list[0].screenshot).toMatch(/^feedback\/.+\.png$/);
  });

  it('contact and declaration show the built-in texts in the chosen language', async () => {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await serveWebAppFrom(ctx, product.url, web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'de'));
    const page = await ctx.newPage();
    await page.goto(`${product.url}/declaration`);
    await expect.poll(() => page.getByTestId('declaration-text').innerText().catch(() => '')).toContain('AGPL-3.0');
    expect(await page.getByTestId('declaration-text').innerText()).toContain('Quellcode');
    await page.goto(`${product.url}/contactus`);
    await expect.poll(() => page.getByTestId('contact-text').innerText().catch(() => '')).toContain('Feedback-Seite');
    await ctx.close();
  });
});
