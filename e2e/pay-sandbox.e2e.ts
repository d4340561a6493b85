import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, registerThroughLoginSite, shoot, startProduct } from './harness.ts';
import { postApi } from './page-helpers.ts';

/**
 * The sandbox provider's pay page in a real browser against the real server (issue 22 part 3): no console error on the
 * page, Approve by redirect lands on the pay-success address, and the signed notification the worker sends over HTTP to
 * /order/v5/notify/sandbox makes the order paid and the rights raised. The QR page at phone width in Chinese.
 */
describe('sandbox payments in a real browser', () => {
  let product: Awaited<ReturnType<typeof startProduct>>;
  let browser: Browser;
  let page: Page;
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() === 'error' && p.url().includes('/pay/sandbox/')) errors.push(`${p.url()}: ${m.text()}`);
    });
    p.on('pageerror', (e) => errors.push(`${p.url()}: ${e.message}`));
  };

  beforeAll(async () => {
    product = await startProduct();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
    watch(page);
    await registerThroughLoginSite(page, product.url, '/yun/index', 'payer@example.com', 'Pat');
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await product?.stop();
  });

  const statusOf = (orderId: string) => postApi(page, `${product.url}/order/v5/status`, { orderId });

  it('redirect payment: the pay page, Approve, back to the pay-success address; the notification makes the order paid', async () => {
    try {
      const { order, redirectUrl } = await postApi(page, `${product.url}/order/v5/create`, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'redirect', currency: 'USD' });
      await page.goto(`${redirectUrl}?lang=en`);
      await expect(page.locator('[data-testid=sandbox-amount]').textContent()).resolves.toBe('4.99 USD');
      await page.click('[data-testid=sandbox-approve]');
      await page.waitForURL(`${product.url}/yun/order?paid=${order.orderId}`);
      for (let i = 0; i < 200 && (await postApi(page, `${product.url}/order/v5/detail`, { orderId: order.orderId })).status !== 1; i++) await page.waitForTimeout(100);
      expect(await statusOf(order.orderId)).toMatchObject({ status: 1, payStatus: 1 });
      const me = await postApi(page, `${product.url}/user/v5/sysuser/userInfo`, {});
      expect(me.vipInfo.goodsCodes).toEqual(['ML1']);
      expect(me.rights.conversion).toBe(true);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'pay-sandbox-redirect');
      throw e;
    }
  });

  it('QR payment at phone width in Chinese: the scanned page, Decline shows the result, the order fails', async () => {
    const phone = await (await browser.newContext({ viewport: { width: 375, height: 740 }, storageState: await page.context().storageState() })).newPage();
    watch(phone);
    try {
      const { order, qrPayload } = await postApi(page, `${product.url}/order/v5/create`, { planCode: 'ML2', payWay: 3, clientType: 12, mode: 'qr', currency: 'CNY' });
      await phone.goto(`${qrPayload}?lang=zh`);
      await expect(phone.locator('[data-testid=sandbox-amount]').textContent()).resolves.toBe('158 CNY');
      expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await phone.click('[data-testid=sandbox-decline]');
      await phone.locator('[data-testid=sandbox-state][data-state=declined]').waitFor();
      expect(await phone.locator('[data-testid=sandbox-state]').textContent()).toBe('已拒绝付款');
      for (let i = 0; i < 200 && (await statusOf(order.orderId)).status !== 4; i++) await phone.waitForTimeout(100);
      expect((await statusOf(order.orderId)).status).toBe(4);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(phone, 'pay-sandbox-qr');
      throw e;
    }
  });
});
