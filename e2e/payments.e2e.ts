import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeAsciiDxf } from '../packages/cad/src/testing/dxf-writer.ts';
import type { BrowserContext, Page } from 'playwright-core';
import { formatSize } from '@cadcloud/contracts';
import { registerThroughLoginSite, shoot } from './harness.ts';
import { confirmOk } from './harness.ts';
import { IPHONE_UA, phoneOverflow, postApi, serveWebAppFrom, uploadToDrive } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';

const GB = 1024 ** 3;
const work = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-e2e-pay-'));
writeFileSync(path.join(work, 'room.dxf'), writeAsciiDxf({ layers: ['0', 'Walls'], entities: [{ type: 'LINE', pairs: [[8, 'Walls'], [10, 0], [20, 0], [30, 0], [11, 100], [21, 0], [31, 0]] }] }));

/**
 * Buying in a real browser against the real server and its built-in sandbox provider (issue 22): premium by QR code
 * (the code's payload opened in a second page, as a phone would, and approved there) and by web payment (redirected
 * to the provider's page and back to My Orders), the order paid in /yun/order, storage and rights raised in
 * /secure/products; an unpaid order cancelled; an exchange code redeemed; the phone pages at 390 px in Chinese.
 */
describe('payments in a real browser', () => {
  let s: SignedIn;
  let page: Page;
  beforeAll(async () => {
    s = await signedInDesktop('payer@example.com', 'Payer');
    page = s.page;
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  async function step<T>(name: string, fn: () => Promise<T>, p: Page = page): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      await shoot(p, `payments-${name}`);
      throw e;
    }
  }
  const user = (p: Page = page) => postApi<{ storage: { used: number; total: number }; rights: Record<string, boolean>; vipInfo: { goodsCodes: string[] } }>(p, `${s.product.url}/user/v5/sysuser/userInfo`, {});

  /** Opens the account pay dialog for `plan` on /upgrade and chooses `way` (Alipay 2, WeChat 3). */
  async function openDialog(p: Page, base: string, plan: string, way: 2 | 3) {
    await p.goto(`${s.product.url}${base}`);
    await p.getByTestId(`buy-${plan}`).click();
    const dialog = p.getByTestId('pay-dialog');
    await dialog.waitFor();
    // the plan's type and duration come chosen from its card; the payment method is the payer's
    await dialog.getByTestId('pay-way').getByText(way === 2 ? /Alipay|支付宝/ : /WeChat|微信/).click();
    return dialog;
  }

  it('shows the plans in dollars with the spec\'s savings, and refuses to pay without a payment method', async () => {
    await step('plans', async () => {
      await page.goto(`${s.product.url}/upgrade`);
      await expect.poll(() => page.getByTestId('plan-ML1').getByTestId('plan-price').textContent()).toBe('$4.99');
      expect(await page.getByTestId('plan-ML1').getByTestId('plan-save').textContent()).toContain('save $6');
      expect(await page.getByTestId('plan-ML2').getByTestId('plan-price').textContent()).toBe('$47.99');
      expect(await page.getByTestId('plan-ML2').getByTestId('plan-save').textContent()).toContain('save $90');
      for (const code of ['ML3', 'SE10', 'SE50']) await page.getByTestId(`plan-${code}`).waitFor();
      // a new account is offered the registration trial, with the spec's English length
      expect(await page.getByTestId('trial').textContent()).toContain('Free 30-day premium trial on registration (ad removal and storage excluded)');
      await page.getByTestId('buy-ML1').click();
      await page.getByTestId('pay-qr-button').click();
      expect(await page.getByTestId('pay-error').textContent()).toBe('Account type, duration and payment method must be chosen');
      await page.keyboard.press('Escape');
      await page.getByTestId('pay-dialog').waitFor({ state: 'hidden' });
    });
  });

  /** The operator's command line on the product's data (`npm run admin -- …`). */
  async function admin(...argv: string[]): Promise<any> {
    const { runAdmin } = await import('../apps/server/src/admin/admin.cli.ts');
    return runAdmin(argv, { ...process.env, DATA_DIR: s.product.dataDir });
  }

  /** Opens room.dxf in the viewer and picks the distance tool: the upgrade prompt instead for a free account. */
  async function pickDistance(): Promise<boolean> {
    await page.goto(`${s.product.url}/yun/index`);
    await page.click('[data-testid="open-room.dxf"]');
    await page.waitForURL(/\/yun\/view\//);
    await page.waitForFunction(() => (window as any).__cadViewer?.layout === 'Model');
    await page.locator('[data-testid=viewer-tools] .ant-segmented-item').nth(1).click();
    const prompted = await page.getByTestId('upsell').waitFor({ timeout: 3_000 }).then(() => true, () => false);
    if (prompted) await confirmOk(page, 'Later');
    return prompted;
  }

  it("shows the operator's ad slot to a free account (none by default)", async () => {
    await step('ad-free-user', async () => {
      await page.goto(`${s.product.url}/yun/index`);
      await page.getByTestId('storage-meter').waitFor();
      expect(await page.getByTestId('ad-web-sider').count()).toBe(0);
      await admin('ad', 'set', '--slot', 'web-sider', '--image', `${s.product.url}/favicon.svg`, '--link', 'https://example.com/offer', '--title', 'Offer');
      await page.reload();
      await page.getByTestId('ad-web-sider').locator('a[href="https://example.com/offer"] img[alt="Offer"]').waitFor();
    });
  });

  it('a free account gets the upgrade prompt instead of the measure and layer tools', async () => {
    await step('viewer-free', async () => {
      await uploadToDrive(page, s.product.url, path.join(work, 'room.dxf'));
      expect(await pickDistance()).toBe(true);
      await page.locator('[data-testid="layer-Walls"]').click();
      await page.getByTestId('upsell').waitFor();
      await confirmOk(page, 'Later');
      expect(await page.locator('[data-testid="layer-Walls"]').isChecked()).toBe(true);
    });
  });

  it('buys premium by QR code: approved on the provider page the code leads to, the dialog closes 3 s after success on My Orders', async () => {
    const before = await user();
    expect(before.rights.viewerTools).toBe(false);
    await step('qr', async () => {
      const dialog = await openDialog(page, '/upgrade', 'ML1', 2);
      await dialog.getByTestId('pay-qr-button').click();
      const qr = dialog.getByTestId('pay-qr');
      await qr.locator('svg').waitFor();
      const payload = (await qr.getAttribute('data-payload'))!;
      expect(payload).toContain('/pay/sandbox/order/');
      // the payer's phone: the page behind the QR code
      const phone = await page.context().newPage();
      await phone.goto(payload);
      await phone.getByTestId('sandbox-approve').click();
      await phone.close();
      await page.getByTestId('pay-success').waitFor({ timeout: 30_000 });
      const shown = Date.now();
      await page.waitForURL(/\/yun\/order$/, { timeout: 10_000 });
      // closes PAY_SUCCESS_CLOSE_MS (3 s) after success: allow the poll's and the browser's slack, not a second close
      expect(Date.now() - shown).toBeGreaterThan(2_000);
      await page.getByTestId('pay-dialog').waitFor({ state: 'detached' });
      const row = page.getByTestId('orders-table').locator('tbody tr[data-row-key]').first();
      await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Paid');
      expect(await row.getByTestId('order-amount').textContent()).toBe('$4.99');
      expect(await row.textContent()).toContain('Alipay');
    });
    await step('products', async () => {
      await page.goto(`${s.product.url}/secure/products`);
      const after = await user();
      expect(after.storage.total - before.storage.total).toBe(5 * GB);
      expect(await page.getByTestId('products-storage').textContent()).toBe(`${formatSize(after.storage.used)} / ${formatSize(after.storage.total)}`);
      expect(await page.getByTestId('products-membership').textContent()).toBe('Premium (monthly)');
      expect(await page.getByTestId('right-viewerTools').getAttribute('data-on')).toBe('1');
      expect(await page.getByTestId('right-model3d').getAttribute('data-on')).toBe('0');
    });
    // the member's viewer runs the tool, and the member sees no ads (premium removes them)
    await step('viewer-member', async () => {
      expect(await pickDistance()).toBe(false);
      await page.goto(`${s.product.url}/yun/index`);
      await page.getByTestId('storage-meter').waitFor();
      await expect.poll(() => postApi(page, `${s.product.url}/ad/v5/web/adver`, { slot: 'web-sider' }).then((r) => r.ads.length)).toBe(0);
      expect(await page.getByTestId('ad-web-sider').count()).toBe(0);
    });
  });

  it('buys by web payment: redirected to the provider, approved, back on My Orders with the success state', async () => {
    await step('redirect', async () => {
      const dialog = await openDialog(page, '/upgrade', 'ML2', 3);
      await dialog.getByTestId('pay-web-button').click();
      await page.waitForURL(/\/pay\/sandbox\/order\//);
      await page.getByTestId('sandbox-approve').click();
      await page.waitForURL(/\/yun\/order\?paid=/);
      await page.getByTestId('paid-result').waitFor({ timeout: 30_000 });
      const row = page.getByTestId('orders-table').locator('tbody tr[data-row-key]').first();
      await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Paid');
      expect(await row.getByTestId('order-amount').textContent()).toBe('$47.99');
      expect(await row.textContent()).toContain('WeChat Pay');
    });
  });

  it('cancels an unpaid order, and the detail shows it', async () => {
    await step('cancel', async () => {
      const dialog = await openDialog(page, '/upgrade', 'ML3', 2);
      await dialog.getByTestId('pay-qr-button').click();
      await dialog.getByTestId('pay-qr').locator('svg').waitFor();
      await page.keyboard.press('Escape');
      await page.getByTestId('nav-order').click();
      const row = page.getByTestId('orders-table').locator('tbody tr[data-row-key]').first();
      await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Unpaid');
      await row.getByTestId('order-cancel').click();
      await confirmOk(page, 'OK');
      await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('Cancelled');
      expect(await row.getByTestId('order-cancel').count()).toBe(0);
      await row.getByTestId('order-detail-button').click();
      const detail = page.getByTestId('order-detail');
      await detail.getByText('Super membership').waitFor();
      expect(await detail.getByTestId('order-status').textContent()).toBe('Cancelled');
      await page.keyboard.press('Escape');
    });
  });

  it('redeems an exchange code made by the operator; an empty one is refused', async () => {
    // the operator's batch: the codes are printed this once
    const [code] = (await admin('code', 'create', '--plan', 'SE10', '--count', '1')).codes as string[];
    const before = await user();
    await step('coupon', async () => {
      await page.goto(`${s.product.url}/yun/coupon`);
      await page.getByTestId('coupon-redeem').click();
      expect(await page.getByTestId('coupon-error').textContent()).toBe('The exchange code cannot be empty');
      await page.getByTestId('coupon-input').fill(code!);
      await page.getByTestId('coupon-redeem').click();
      await page.getByText(/^Exchanged: 10G expansion until/).waitFor();
      await expect.poll(() => page.getByTestId('coupon-records').getByTestId('code-status').first().textContent()).toBe('Exchanged');
    });
    expect((await user()).storage.total - before.storage.total).toBe(10 * GB);
  });

  it('the phone pages at 390 px, in Chinese: buy by QR code, see it paid in My Orders', async () => {
    const ctx: BrowserContext = await s.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, userAgent: IPHONE_UA, storageState: await page.context().storageState() });
    await serveWebAppFrom(ctx, s.product.url, s.web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'zh'));
    const phone = await ctx.newPage();
    await step('phone', async () => {
      await phone.goto(`${s.product.url}/webH5/upgrade`);
      await expect.poll(() => phone.getByTestId('plan-ML1').getByTestId('plan-price').textContent()).toBe('¥15');
      expect(await phone.getByTestId('plan-ML2').getByTestId('plan-price').textContent()).toBe('¥158');
      expect(await phoneOverflow(phone)).toBeLessThanOrEqual(15);
      const dialog = await openDialog(phone, '/webH5/upgrade', 'SE50', 3);
      await dialog.getByTestId('pay-qr-button').click();
      const payload = (await dialog.getByTestId('pay-qr').getAttribute('data-payload'))!;
      // the payer approves through the sandbox's JSON endpoint this time (the tester's way without a browser)
      const approved = await phone.request.post(`${s.product.url}/pay/sandbox/approve`, { data: { orderId: payload.split('/').pop() } });
      expect(approved.ok(), await approved.text()).toBe(true);
      await phone.getByText('支付成功').first().waitFor({ timeout: 30_000 });
      await phone.waitForURL(/\/webH5\/order$/, { timeout: 10_000 });
      const row = phone.getByTestId('orders-table').locator('tbody tr[data-row-key]').first();
      await expect.poll(() => row.getByTestId('order-status').textContent()).toBe('支付成功');
      expect(await row.getByTestId('order-amount').textContent()).toBe('¥40');
      for (const path of ['/webH5/order', '/webH5/coupon', '/webH5/products', '/webH5/freeze', '/webH5/upgrade']) {
        await phone.goto(`${s.product.url}${path}`);
        await phone.locator('.page-title').waitFor();
        expect(await phoneOverflow(phone), path).toBeLessThanOrEqual(15);
      }
    }, phone);
    await ctx.close();
  });

  it('a frozen account: the banner on every page and the explanation page (the free unfreeze only for accounts from before October 2017)', async () => {
    const ctx = await s.browser.newContext({ viewport: { width: 1280, height: 860 } });
    await serveWebAppFrom(ctx, s.product.url, s.web);
    await ctx.addInitScript(() => localStorage.setItem('cadcloud.lang', 'en'));
    const p = await ctx.newPage();
    await step('frozen', async () => {
      await registerThroughLoginSite(p, s.product.url, '/yun/index', 'frozen@example.com', 'Frosty');
      await uploadToDrive(p, s.product.url, path.join(work, 'room.dxf'));
      expect(await p.getByTestId('freeze-banner').count()).toBe(0);
      // the operator shrinks the account below what it stores: frozen (spec section 4)
      await admin('user', 'quota', '--email', 'frozen@example.com', '--bytes', '1');
      await p.goto(`${s.product.url}/yun/index`);
      await p.getByTestId('freeze-banner').waitFor();
      await p.getByTestId('freeze-more').click();
      await p.waitForURL(/\/yun\/freeze$/);
      const text = await p.getByTestId('freeze-page').textContent();
      for (const part of ['upload, sync, move and rename are blocked', 'Frozen data is cleared after 3 months.', 'Renewing your membership', 'Buying space', 'Cleaning up files', 'Publishing drawings']) expect(text).toContain(part);
      await p.getByTestId('freeze-purge-at').waitFor();
      expect(await p.getByTestId('free-unfreeze-open').count()).toBe(0);
    }, p);
    await ctx.close();
  });
});
