import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ssoText, type Language } from '@cadcloud/i18n';
import { launchBrowser, shoot, startProduct } from './harness.ts';

/**
 * Issue 16 item 12: a short password on the login site got the browser's English validation bubble in the Chinese
 * page. Every check of the login site's forms answers in the page's language, with our own texts.
 */
describe('the login site validates in its own words', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    // an English browser: what it would say itself is English, whatever the page's language
    page = await browser.newPage({ locale: 'en-US', viewport: { width: 390, height: 800 } });
  });
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const errorText = () => page.locator('.err').innerText({ timeout: 10_000 });

  for (const lang of ['zh', 'en', 'ko', 'de'] as Language[]) {
    it(`${lang}: a short password, mismatched passwords, an empty sign-in and a bad address get our texts`, async () => {
      try {
        await page.goto(`${product.url}/yun/recent`);
        await page.waitForURL(/\/interaction\//);
        const interaction = page.url().split('?')[0];
        await page.goto(`${interaction}/register?lang=${lang}`);
        await page.fill('#email', `short-${lang}@example.com`);
        await page.fill('#password', 'short');
        await page.fill('#confirm', 'short');
        await page.click('button[type=submit]');
        expect(await errorText()).toBe(ssoText(lang, 'err.password.weak'));

        await page.fill('#password', 'long enough 1');
        await page.fill('#confirm', 'long enough 2');
        await page.click('button[type=submit]');
        expect(await errorText()).toBe(ssoText(lang, 'err.password.mismatch'));

        await page.goto(`${interaction}?lang=${lang}`);
        await page.click('button[type=submit]');
        expect(await errorText()).toBe(ssoText(lang, 'err.required'));

        await page.goto(`${new URL(interaction).origin}/forgot?lang=${lang}`);
        await page.fill('#email', 'not an address');
        await page.click('button[type=submit]');
        expect(await errorText()).toBe(ssoText(lang, 'err.email.invalid'));
      } catch (e) {
        await shoot(page, `login-validation-${lang}`);
        throw e;
      }
    });
  }
});
