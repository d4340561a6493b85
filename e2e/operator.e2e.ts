import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runAdmin } from '../apps/server/src/admin/admin.cli.ts';
import { phoneOverflow, postApi } from './page-helpers.ts';
import { signedInDesktop, type SignedIn } from './signed-in.ts';

const PDF = '%PDF-1.4\n% CADCloud operator test invoice\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n';

/**
 * The operator page in a real browser (issue 23): an account named by OPERATOR_EMAILS (here also the company admin
 * who requested an invoice) finds /operator in the user menu, issues the requested invoice by uploading its PDF, and
 * the invoice is issued for the member too; answers a feedback message from the Feedback tab (mailed); the page fits
 * 390 px; no console errors.
 */
describe('operator page in a real browser', () => {
  let s: SignedIn;
  let page: Page;
  const errors: string[] = [];
  const email = 'ops@example.com';

  beforeAll(async () => {
    s = await signedInDesktop(email, 'Ops', { OPERATOR_EMAILS: email });
    page = s.page;
    page.on('console', (m) => m.type() === 'error' && errors.push(`${page.url()}: ${m.text()}`));
    page.on('pageerror', (e) => errors.push(`${page.url()}: ${e.message}`));
  }, 180_000);
  afterAll(async () => s?.close());

  it('the operator issues the requested invoice by uploading a PDF (it shows issued) and answers feedback', async () => {
    await runAdmin(['company', 'create', '--name', 'Acme Drawing Ltd', '--admin', email], { DATA_DIR: s.product.dataDir, DATABASE_URL: '' });
    // a paid order through the sandbox, a title and the request (the /invoice pages are covered by invoices.e2e.ts)
    const api = (p: string, d: unknown) => postApi(page, `${s.product.url}${p}`, d);
    const { order } = await api('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'redirect', currency: 'USD' });
    expect((await page.request.post(`${s.product.url}/pay/sandbox/approve`, { data: { orderId: order.orderId } })).ok()).toBe(true);
    for (let i = 0; i < 200 && (await api('/order/v5/detail', { orderId: order.orderId })).status !== 1; i++) await page.waitForTimeout(100);
    const { titleId } = await api('/invoice/v5/title/save', { name: 'Acme Drawing Ltd', taxId: '91310000MA1FL0000X', address: '', phone: '', bank: '', account: '' });
    const { invoiceId } = await api('/invoice/v5/create', { orderIds: [order.orderId], titleId });

    await page.reload();
    await page.getByTestId('user-menu').click();
    await page.getByTestId('operator-link').click();
    await page.waitForURL(/\/operator$/);
    const row = page.getByTestId(`operator-invoice-${invoiceId}`);
    await row.getByText('Acme Drawing Ltd').first().waitFor();
    await row.locator('[data-testid=invoice-status][data-status="2"]').waitFor();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), row.getByTestId('operator-issue').click()]);
    await chooser.setFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF, 'latin1') });
    await row.locator('[data-testid=invoice-status][data-status="1"]').waitFor();
    expect(await row.getByTestId('operator-issue').count()).toBe(0);

    // the member's side: issued, with the PDF
    await page.goto(`${s.product.url}/invoice/detail?invoiceId=${invoiceId}`);
    await page.locator('[data-testid=invoice-detail] [data-testid=invoice-status][data-status="1"]').waitFor();

    // feedback: listed for the operator, answered by mail from the Feedback tab
    const { id: feedbackId } = await api('/cloud/v5/advice/add', { email: 'sender@example.com', content: 'Please add a dark theme' });
    await page.goto(`${s.product.url}/operator`);
    await page.getByRole('tab', { name: 'Feedback' }).click();
    const fb = page.getByTestId(`operator-feedback-${feedbackId}`);
    await fb.getByText('Please add a dark theme').waitFor();
    await fb.getByTestId('operator-reply-text').fill('Thanks, it is planned.');
    await fb.getByTestId('operator-reply-send').click();
    // answered: gone from the open list, shown with its reply in the full list
    await fb.waitFor({ state: 'detached' });
    await page.getByTestId('operator-open-only').click();
    await page.getByTestId(`operator-feedback-${feedbackId}`).getByTestId('operator-replied').getByText('Thanks, it is planned.').waitFor();
    const outbox = (await runAdmin(['mail', 'outbox', '--limit', '50'], { DATA_DIR: s.product.dataDir, DATABASE_URL: '' })) as { to: string; text: string }[];
    expect(outbox.some((m) => m.to.includes('sender@example.com') && m.text.includes('Thanks, it is planned.'))).toBe(true);

    await page.setViewportSize({ width: 390, height: 860 });
    await page.goto(`${s.product.url}/operator`);
    await page.getByTestId(`operator-invoice-${invoiceId}`).waitFor();
    expect(await phoneOverflow(page)).toBeLessThanOrEqual(390 - 375);
    expect(errors).toEqual([]);
  }, 180_000);
});
