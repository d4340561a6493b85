import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { runAdmin } from '../apps/server/src/admin/admin.cli.ts';
import { loadConfig } from '../apps/server/src/infra/config/index.ts';
import { createDatabase } from '../apps/server/src/infra/index.ts';
import { createSessionsService } from '../apps/server/src/modules/users/sessions.service.ts';
import { shoot } from './harness.ts';
import { phoneOverflow, postApi, settle } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';

const HEADER_KEY = 'cadcloud.invoice.currentCompanyHeader';
const PDF = '%PDF-1.4\n% CADCloud test invoice\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

/**
 * The invoice feature in a real browser against the real server (issue 23): a company admin (company made by the admin
 * CLI) adds a title, requests an invoice for an order paid through the sandbox, the operator issues it with the CLI,
 * the member downloads the PDF; the chosen company header survives a reload, and is gone after the ticket changes.
 * Every /invoice page renders on desktop and at 390 px without a console error.
 */
describe('invoices in a real browser', () => {
  let s: SignedIn;
  let page: Page;
  const errors: string[] = [];
  const email = 'boss@example.com';

  beforeAll(async () => {
    s = await signedInDesktop(email, 'Boss');
    page = s.page;
    page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  }, 180_000);
  afterAll(async () => s?.close());

  const admin = (...args: string[]): Promise<any> => runAdmin(args, { DATA_DIR: s.product.dataDir, DATABASE_URL: '' });

  it('request → operator issues → download; the saved company header is dropped when the ticket changes', async () => {
    try {
      await admin('company', 'create', '--name', 'Acme Drawing Ltd', '--admin', email);
      // a paid order through the sandbox: create, approve, the worker delivers the signed notification
      const { order } = await postApi(page, `${s.product.url}/order/v5/create`, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'redirect', currency: 'USD' });
      const approved = await page.request.post(`${s.product.url}/pay/sandbox/approve`, { data: { orderId: order.orderId } });
      expect(approved.ok()).toBe(true);
      for (let i = 0; i < 200 && (await postApi(page, `${s.product.url}/order/v5/detail`, { orderId: order.orderId })).status !== 1; i++) await page.waitForTimeout(100);

      // the account center's user menu shows the company and leads to the invoice area
      await page.getByTestId('user-menu').click();
      await page.getByTestId('account-company').getByText('Acme Drawing Ltd').click();
      await page.waitForURL(/\/invoice\/index$/);
      await page.getByTestId('invoice-company').getByText('Acme Drawing Ltd').waitFor();
      await page.goto(`${s.product.url}/invoice/addTitle`);
      await page.getByTestId('title-name').fill('Acme Drawing Ltd');
      await page.getByTestId('title-taxId').fill('91310000MA1FL0000X');
      await page.getByTestId('title-bank').fill('Bank of Examples');
      await page.getByTestId('title-save').click();
      await page.waitForURL(/\/invoice\/title$/);
      await page.getByText('91310000MA1FL0000X').waitFor();

      await page.goto(`${s.product.url}/invoice/create`);
      await page.locator(`input[name="${order.orderId}"]`).check();
      await page.getByTestId('invoice-title-select').click();
      await page.locator('.ant-select-item-option').filter({ hasText: 'Acme Drawing Ltd' }).click();
      await page.getByTestId('invoice-current-header').getByText('Acme Drawing Ltd').waitFor();
      await page.getByTestId('invoice-submit').click();
      await page.waitForURL(/\/invoice\/detail\?invoiceId=/);
      const invoiceId = new URL(page.url()).searchParams.get('invoiceId')!;
      await page.locator('[data-testid=invoice-detail] [data-testid=invoice-status][data-status="2"]').waitFor();
      const saved = JSON.parse((await page.evaluate((k) => localStorage.getItem(k), HEADER_KEY))!);
      expect(saved).toMatchObject({ companyName: 'Acme Drawing Ltd', clientType: 'Web_PC' });

      // the operator issues it with the CLI
      const pdf = path.join(s.product.dataDir, 'issued.pdf');
      writeFileSync(pdf, PDF);
      expect(await admin('invoice', 'issue', invoiceId, '--pdf', pdf)).toMatchObject({ status: 1 });
      await page.reload();
      await page.locator('[data-testid=invoice-detail] [data-testid=invoice-status][data-status="1"]').waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('invoice-download').click()]);
      expect(readFileSync((await download.path())!, 'latin1')).toBe(PDF);
      // the header is still there under the same ticket
      await page.goto(`${s.product.url}/invoice/create`);
      await page.getByTestId('invoice-current-header').waitFor();

      // another ticket for the same account: the saved header is discarded
      const config = loadConfig({ DATA_DIR: s.product.dataDir, DATABASE_URL: '' });
      const db = createDatabase(config.databaseUrl);
      try {
        const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
        const { ticket } = await createSessionsService({ db, config }).createSession(user.id, 'Web_PC');
        await page.context().addCookies([{ name: 'ticket', value: ticket, url: s.product.url }]);
      } finally {
        await db.destroy();
      }
      await page.goto(`${s.product.url}/invoice/index`);
      await page.getByTestId('invoice-company').waitFor();
      await settle(page);
      expect(await page.evaluate((k) => localStorage.getItem(k), HEADER_KEY)).toBeNull();
      expect(await page.getByTestId('invoice-current-header').count()).toBe(0);
      expect(errors).toEqual([]);
    } catch (e) {
      await shoot(page, 'invoices-flow');
      throw e;
    }
  }, 180_000);

  it('every /invoice page renders on desktop and at 390 px, in the app (no 404, no raw JSON), without console errors', async () => {
    const ids = await postApi(page, `${s.product.url}/invoice/v5/list`, {});
    const invoiceId = ids.invoices[0]?.invoiceId ?? 'none';
    const pages = ['index', 'lite-intro', 'create', 'title', 'addTitle', 'record', `detail?invoiceId=${invoiceId}`, 'book', 'notice', `reCreate?invoiceId=${invoiceId}`];
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      for (const p of pages) {
        await page.goto(`${s.product.url}/invoice/${p}`);
        await page.locator('.invoice-main h2').waitFor();
        expect(new URL(page.url()).pathname, p).toBe(`/invoice/${p.split('?')[0]}`);
        expect(await page.locator('body').textContent()).not.toMatch(/"rtnCode"/);
        if (width === 390) expect(await phoneOverflow(page), p).toBeLessThanOrEqual(390 - 375);
      }
    }
    expect(errors).toEqual([]);
  }, 180_000);
});
