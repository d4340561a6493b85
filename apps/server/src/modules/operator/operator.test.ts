import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvoiceStatus as S, OPERATOR_PATHS as P } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { listOutbox } from '../../infra/mail/outbox.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { requestedInvoice } from '../invoices/test-invoices.ts';
import { isOperator } from './operator.config.ts';

const PDF = Buffer.from('%PDF-1.4\n% issued\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
type User = { id: string; email: string; token: string };

/**
 * The operator page's endpoints (issue 23): only OPERATOR_EMAILS accounts may call them; the operator issues
 * (the member then downloads the PDF), fails and voids invoices and answers feedback by mail.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`operator endpoints on ${driver.name}`, () => {
    let t: TestApp;
    let op: User, member: User, other: User;

    async function issue(token: string | undefined, invoiceId: string, pdf: Buffer) {
      const boundary = `----op${Date.now()}`;
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="invoiceId"\r\n\r\n${invoiceId}\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n`), pdf, Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const url = token ? `${P.invoiceIssue}?utoken=${encodeURIComponent(token)}` : P.invoiceIssue;
      return (await t.app.inject({ method: 'POST', url, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body })).json();
    }
    const mailsTo = async (to: string) => (await listOutbox(t.db.db, { limit: 100 })).filter((m) => m.to_addr.includes(to));

    beforeAll(async () => {
      t = await createTestApp(driver, { OPERATOR_EMAILS: ' Boss@Example.com , ops2@example.com' });
      op = await t.createUser({ email: 'boss@example.com' });
      [member, other] = await Promise.all([t.createUser(), t.createUser()]);
    });
    afterAll(async () => t?.close());

    it('isOperator: listed e-mails only, case-insensitive; an empty setting names nobody', () => {
      expect(isOperator(' A@x.com,b@x.com ', 'a@X.com')).toBe(true);
      expect(isOperator('a@x.com', 'c@x.com')).toBe(false);
      expect(isOperator('', '')).toBe(false);
      expect(isOperator(undefined, 'a@x.com')).toBe(false);
      expect(isOperator('a@x.com,,', '')).toBe(false);
    });

    it('every operator path is in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of Object.values(P)) expect(doc.paths[p], p).toBeTruthy();
    });

    it('userInfo says operator for the operator only', async () => {
      expect((await t.call('/user/v5/sysuser/userInfo', {}, op.token)).bizData.operator).toBe(true);
      expect((await t.call('/user/v5/sysuser/userInfo', {}, member.token)).bizData.operator).toBe(false);
    });

    it('a non-operator is refused on every operator endpoint and nothing changes', async () => {
      const invoiceId = await requestedInvoice(t, other, 'Refused Co');
      const fb = (await t.call('/cloud/v5/advice/add', { email: 'x@example.com', content: 'hello' }, other.token)).bizData.id;
      const before = JSON.stringify([await t.db.db.selectFrom('invoices').selectAll().orderBy('id').execute(), await t.db.db.selectFrom('feedback').selectAll().orderBy('id').execute()]);
      const calls: [string, unknown][] = [[P.invoiceList, { pageNo: 1, pageSize: 10 }], [P.invoiceFail, { invoiceId, reason: 'no' }], [P.invoiceVoid, { invoiceId }], [P.feedbackList, {}], [P.feedbackReply, { id: fb, text: 'hi' }]];
      for (const [path, data] of calls) {
        const r = await t.call(path, data, other.token, 'en');
        expect(r.bizData?.code, path).toBe('operator.forbidden');
        expect(r.msg, path).toBe('Only the operator may do this.');
        expect((await t.call(path, data, undefined)).rtnCode, path).toBe('101');
      }
      expect((await issue(other.token, invoiceId, PDF)).bizData.code).toBe('operator.forbidden');
      expect((await issue(undefined, invoiceId, PDF)).rtnCode).toBe('101');
      expect(JSON.stringify([await t.db.db.selectFrom('invoices').selectAll().orderBy('id').execute(), await t.db.db.selectFrom('feedback').selectAll().orderBy('id').execute()])).toBe(before);
    });

    it('the operator lists requests with the company, issues one with its PDF; the member downloads it and is mailed', async () => {
      const invoiceId = await requestedInvoice(t, member, 'Acme Drawing Ltd');
      const list = (await t.call(P.invoiceList, { status: S.INVOICING, pageNo: 1, pageSize: 50 }, op.token)).bizData;
      expect(list.total).toBeGreaterThanOrEqual(1);
      expect(list.invoices.find((i: { invoiceId: string }) => i.invoiceId === invoiceId)).toMatchObject({ companyName: 'Acme Drawing Ltd', status: S.INVOICING, requesterEmail: member.email });
      // not a PDF, and too large: refused, still invoicing
      expect((await issue(op.token, invoiceId, Buffer.from('GIF89a not a pdf'))).bizData.code).toBe('request.invalid');
      expect((await issue(op.token, invoiceId, Buffer.concat([PDF, Buffer.alloc(10 * 1024 * 1024)]))).bizData.code).toBe('request.invalid');
      expect((await issue(op.token, 'no-such-invoice', PDF)).bizData.code).toBe('invoice.notFound');
      expect((await t.call('/invoice/v5/detail', { invoiceId }, member.token)).bizData.status).toBe(S.INVOICING);

      const issued = await issue(op.token, invoiceId, PDF);
      expect(issued.rtnCode, issued.msg).toBe('0000000');
      expect(issued.bizData).toMatchObject({ status: S.INVOICED, hasPdf: true });
      const { url } = (await t.call('/invoice/v5/download', { invoiceId }, member.token)).bizData;
      const got = await t.fetchSigned(url);
      expect(got.status).toBe(200);
      expect(Buffer.from(got.body).equals(PDF)).toBe(true);
      expect((await mailsTo(member.email)).some((m) => m.text.includes(invoiceId))).toBe(true);
      // issued already: issuing again is refused
      expect((await issue(op.token, invoiceId, PDF)).bizData.code).toBe('request.invalid');
    });

    it('fail with a reason (mailed), then void', async () => {
      const invoiceId = await requestedInvoice(t, other, 'Fail Co');
      expect((await t.call(P.invoiceFail, { invoiceId, reason: '' }, op.token)).rtnCode).not.toBe('0000000');
      const failed = (await t.call(P.invoiceFail, { invoiceId, reason: 'tax id does not match' }, op.token)).bizData;
      expect(failed).toMatchObject({ status: S.FAILED, reason: 'tax id does not match' });
      expect((await mailsTo(other.email)).some((m) => m.text.includes('tax id does not match'))).toBe(true);
      expect((await t.call(P.invoiceVoid, { invoiceId }, op.token)).bizData.status).toBe(S.VOIDED);
      expect((await t.call(P.invoiceVoid, { invoiceId }, op.token)).bizData.code).toBe('request.invalid');
      expect((await t.call('/invoice/v5/detail', { invoiceId }, other.token)).bizData.status).toBe(S.VOIDED);
    });

    it('feedback: listed, answered by mail, then no longer open', async () => {
      const id = (await t.call('/cloud/v5/advice/add', { email: 'sender@example.com', content: 'The viewer is slow', pageUrl: '/yun/list' }, member.token)).bizData.id;
      const open = (await t.call(P.feedbackList, { open: true }, op.token)).bizData.feedback;
      expect(open.find((f: { id: string }) => f.id === id)).toMatchObject({ email: 'sender@example.com', content: 'The viewer is slow', pageUrl: '/yun/list', reply: null });
      const r = (await t.call(P.feedbackReply, { id, text: 'Fixed in the next release.' }, op.token)).bizData;
      expect(r).toMatchObject({ id, reply: 'Fixed in the next release.' });
      expect((await mailsTo('sender@example.com')).some((m) => m.text.includes('Fixed in the next release.'))).toBe(true);
      expect((await t.call(P.feedbackList, { open: true }, op.token)).bizData.feedback.some((f: { id: string }) => f.id === id)).toBe(false);
      expect((await t.call(P.feedbackReply, { id: 'nope', text: 'x' }, op.token)).bizData.code).toBe('item.notFound');
    });
  });
}
