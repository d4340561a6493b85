import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_PATHS, INVOICE_PATHS, InvoiceStatus as S } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { listOutbox } from '../../infra/mail/outbox.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createOrdersService, type OrdersService } from '../orders/orders.service.ts';
import { createInvoicesService, type InvoicesService } from './invoices.service.ts';
import { paidOrder as paidOrderOf } from './test-invoices.ts';

const PDF = Buffer.from('%PDF-1.4\n% an invoice\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
type User = { id: string; email: string; token: string };

/**
 * Companies and invoices over HTTP on a real database (SQLite, and PostgreSQL when TEST_POSTGRES_URL is set): the
 * invitation by signed link, who may request (refusals with their messages), one live invoice per order (also under
 * two concurrent requests), visibility across companies, the operator's issue/fail/void and the member's re-issue.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`invoices on ${driver.name}`, () => {
    let t: TestApp;
    let orders: OrdersService;
    let inv: InvoicesService;
    let admin: User, member: User, noRight: User, outsider: User, otherAdmin: User;
    let titleId: string;

    const paidOrder = (u: User, currency: 'CNY' | 'USD' = 'CNY') => paidOrderOf(orders, u.id, currency);
    const lastMailTo = async (to: string) => (await listOutbox(t.db.db, { limit: 50 })).find((m) => m.to_addr.includes(to));
    async function join(u: User, mayInvoice: boolean) {
      expect((await t.call('/company/v5/member/invite', { email: u.email, mayInvoice }, admin.token)).rtnCode).toBe('0000000');
      const token = new URL(/https?:\/\/\S+/.exec((await lastMailTo(u.email))!.text)![0]).searchParams.get('acceptInvite')!;
      const r = await t.call('/company/v5/member/accept', { token }, u.token);
      expect(r.rtnCode, r.msg).toBe('0000000');
      return token;
    }

    beforeAll(async () => {
      t = await createTestApp(driver);
      await createMembershipService(t.deps).ensureCatalog();
      orders = createOrdersService(t.deps, { log: () => {} });
      inv = createInvoicesService(t.deps);
      [admin, member, noRight, outsider, otherAdmin] = await Promise.all([0, 1, 2, 3, 4].map(() => t.createUser()));
      await inv.companies.createCompany({ name: 'Acme Drawing Ltd', taxId: '91310000X', adminEmail: admin.email });
      await inv.companies.createCompany({ name: 'Other Co', adminEmail: otherAdmin.email });
    });
    afterAll(async () => t?.close());

    it('getCompanyInfoByToken: the company of a member, null for others, with a ticket fingerprint that is not the ticket', async () => {
      const r = (await t.call('/company/v5/member/getCompanyInfoByToken', {}, admin.token)).bizData;
      expect(r.company).toMatchObject({ companyName: 'Acme Drawing Ltd', taxId: '91310000X', role: 'admin', mayInvoice: true });
      expect(r.utoken).toMatch(/^[\w-]{22}$/);
      expect(r.utoken).not.toContain(admin.token);
      expect((await t.call('/company/v5/member/getCompanyInfoByToken', {}, outsider.token)).bizData).toMatchObject({ company: null });
    });

    it('a user in no company creates their own and is its admin; a member cannot create another; signed out: 101', async () => {
      const founder = await t.createUser();
      expect((await t.call('/company/v5/member/create', { name: '  ' }, founder.token)).bizData.code).toBe('request.invalid');
      const made = (await t.call('/company/v5/member/create', { name: 'Founder Works', taxId: '9131X' }, founder.token)).bizData;
      expect(made).toMatchObject({ companyName: 'Founder Works', taxId: '9131X', role: 'admin', mayInvoice: true });
      expect((await t.call('/company/v5/member/getCompanyInfoByToken', {}, founder.token)).bizData.company).toEqual(made);
      expect((await t.call('/company/v5/member/list', {}, founder.token)).bizData.members).toEqual([expect.objectContaining({ email: founder.email.toLowerCase(), role: 'admin', status: 'active' })]);
      const again = await t.call('/company/v5/member/create', { name: 'Second' }, founder.token, 'en');
      expect(again).toMatchObject({ bizData: { code: 'company.alreadyMember' }, msg: 'You are already a member of a company and cannot create another' });
      expect((await t.call('/company/v5/member/create', { name: 'Second' }, admin.token)).bizData.code).toBe('company.alreadyMember');
      expect((await t.call('/company/v5/member/create', { name: 'Nobody' }, undefined)).rtnCode).toBe('101');
      // another company's admin sees none of it
      expect(JSON.stringify((await t.call('/company/v5/member/list', {}, otherAdmin.token)).bizData)).not.toContain(founder.email.toLowerCase());
    });

    it('invitation: a signed link, only for the invited e-mail, once; a tampered token is refused', async () => {
      const token = await join(member, true);
      expect((await t.call('/company/v5/member/accept', { token }, member.token, 'en')).msg).toBe('The invitation link is invalid or already used');
      await t.call('/company/v5/member/invite', { email: noRight.email, mayInvoice: false }, admin.token);
      const link = new URL(/https?:\/\/\S+/.exec((await lastMailTo(noRight.email))!.text)![0]);
      expect(link.pathname).toBe('/invoice/index');
      const good = link.searchParams.get('acceptInvite')!;
      expect((await t.call('/company/v5/member/accept', { token: `${good}x` }, noRight.token)).bizData.code).toBe('company.inviteInvalid');
      // someone else signed in cannot take it
      expect((await t.call('/company/v5/member/accept', { token: good }, outsider.token)).bizData.code).toBe('company.inviteInvalid');
      expect((await t.call('/company/v5/member/accept', { token: good }, noRight.token)).rtnCode).toBe('0000000');
      // only the admin manages members
      expect((await t.call('/company/v5/member/list', {}, member.token)).bizData.code).toBe('company.notAdmin');
      const members = (await t.call('/company/v5/member/list', {}, admin.token)).bizData.members;
      expect(members.map((m: { email: string; mayInvoice: boolean; status: string }) => [m.email, m.mayInvoice, m.status])).toEqual([
        [admin.email, true, 'active'],
        [member.email, true, 'active'],
        [noRight.email, false, 'active'],
      ]);
    });

    it('titles: add, edit, list, delete', async () => {
      const add = await t.call('/invoice/v5/title/save', { name: 'Acme Drawing Ltd', taxId: '91310000X', address: '1 Road', phone: '123', bank: 'Bank', account: '6222' }, member.token);
      expect(add.rtnCode, add.msg).toBe('0000000');
      titleId = add.bizData.titleId;
      const extra = (await t.call('/invoice/v5/title/save', { name: 'Temp', taxId: '1' }, member.token)).bizData.titleId;
      expect((await t.call('/invoice/v5/title/save', { titleId: extra, name: 'Temp 2', taxId: '2' }, member.token)).bizData).toMatchObject({ name: 'Temp 2', taxId: '2', address: '' });
      expect((await t.call('/invoice/v5/title/list', {}, noRight.token)).bizData.titles.map((x: { name: string }) => x.name)).toEqual(['Acme Drawing Ltd', 'Temp 2']);
      expect((await t.call('/invoice/v5/title/delete', { titleId: extra }, member.token)).rtnCode).toBe('0000000');
      expect((await t.call('/invoice/v5/title/list', {}, otherAdmin.token)).bizData.titles).toEqual([]);
      expect((await t.call('/invoice/v5/title/delete', { titleId }, otherAdmin.token)).bizData.code).toBe('invoice.titleNotFound');
      expect((await t.call('/invoice/v5/title/save', { name: '', taxId: '1' }, member.token)).rtnCode).not.toBe('0000000');
    });

    it('rights: a non-member and a member without may_invoice are refused with a clear message', async () => {
      const o1 = await paidOrder(outsider);
      const refusedOutsider = await t.call('/invoice/v5/create', { orderIds: [o1], titleId }, outsider.token, 'en');
      expect(refusedOutsider).toMatchObject({ bizData: { code: 'company.notMember' }, msg: 'You are not a member of a company: only company members can request invoices' });
      const o2 = await paidOrder(noRight);
      const refused = await t.call('/invoice/v5/create', { orderIds: [o2], titleId }, noRight.token, 'en');
      expect(refused).toMatchObject({ bizData: { code: 'invoice.notAllowed' }, msg: 'Your company administrator has not allowed you to request invoices' });
      expect((await t.call('/invoice/v5/create', { orderIds: [o2], titleId }, noRight.token, 'zh')).msg).toBe('企业管理员尚未允许您申请发票');
      // the admin allows it: the same request now goes through
      const nr = (await t.call('/company/v5/member/list', {}, admin.token)).bizData.members.find((m: { email: string }) => m.email === noRight.email);
      await t.call('/company/v5/member/setMayInvoice', { memberId: nr.memberId, mayInvoice: true }, admin.token);
      expect((await t.call('/invoice/v5/create', { orderIds: [o2], titleId }, noRight.token)).bizData.status).toBe(S.INVOICING);
      // another company's admin cannot change this company's members
      expect((await t.call('/company/v5/member/setMayInvoice', { memberId: nr.memberId, mayInvoice: false }, otherAdmin.token)).bizData.code).toBe('company.memberNotFound');
      // someone else's order, or an unpaid one, cannot be picked
      expect((await t.call('/invoice/v5/create', { orderIds: [o1], titleId }, member.token)).bizData.code).toBe('invoice.orderNotInvoiceable');
      const unpaid = (await orders.create(member.id, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr', currency: 'CNY' })).order.orderId;
      expect((await t.call('/invoice/v5/create', { orderIds: [unpaid], titleId }, member.token)).bizData.code).toBe('invoice.orderNotInvoiceable');
      expect((await t.call('/invoice/v5/create', { orderIds: [await paidOrder(member), await paidOrder(member, 'USD')], titleId }, member.token)).bizData.code).toBe('invoice.mixedCurrencies');
    });

    it('one live invoice per order: a second request is refused, and of two concurrent requests exactly one wins', async () => {
      const o = await paidOrder(member);
      const first = await t.call('/invoice/v5/create', { orderIds: [o], titleId }, member.token, 'en');
      expect(first.bizData).toMatchObject({ status: S.INVOICING, orderIds: [o], currency: 'CNY', amount: 15, hasPdf: false, title: { name: 'Acme Drawing Ltd' } });
      expect(await t.call('/invoice/v5/create', { orderIds: [o], titleId }, member.token, 'en')).toMatchObject({ bizData: { code: 'invoice.orderAlreadyInvoiced' }, msg: 'A chosen order is already invoiced or being invoiced' });
      const listed = (await t.call('/invoice/v5/orders', {}, member.token)).bizData.orders.find((x: { orderId: string }) => x.orderId === o);
      expect(listed).toMatchObject({ invoiceStatus: S.INVOICING, invoiceId: first.bizData.invoiceId });

      const race = await paidOrder(member);
      const rs = await Promise.all([inv.create(member.id, { orderIds: [race], titleId }), inv.create(member.id, { orderIds: [race], titleId })].map((p) => p.then((x) => x.invoiceId, (e) => e.code)));
      expect(rs.filter((r) => r === 'invoice.orderAlreadyInvoiced')).toHaveLength(1);
      expect(await t.db.db.selectFrom('invoice_order_claims').selectAll().where('order_id', '=', race).execute()).toHaveLength(1);
      // the loser left no invoice behind
      const onRace = await t.db.db.selectFrom('invoice_orders').select('invoice_id').where('order_id', '=', race).execute();
      expect(onRace).toHaveLength(1);
    });

    it('the life of an invoice: issue (PDF, mail), download by requester and admin only, re-issue, fail, issue again, void frees the order', async () => {
      const o = await paidOrder(member);
      const id = (await inv.create(member.id, { orderIds: [o], titleId })).invoiceId;
      // visibility: the requester and the admin; not another member, not another company
      expect((await t.call('/invoice/v5/detail', { invoiceId: id }, admin.token)).bizData.invoiceId).toBe(id);
      expect((await t.call('/invoice/v5/detail', { invoiceId: id }, noRight.token)).bizData.code).toBe('invoice.notFound');
      expect((await t.call('/invoice/v5/detail', { invoiceId: id }, otherAdmin.token)).bizData.code).toBe('invoice.notFound');
      expect((await t.call('/invoice/v5/download', { invoiceId: id }, otherAdmin.token)).bizData.code).toBe('invoice.notFound');
      expect((await t.call('/invoice/v5/list', {}, otherAdmin.token)).bizData.invoices).toEqual([]);
      expect((await t.call('/invoice/v5/list', {}, admin.token)).bizData.invoices.map((x: { invoiceId: string }) => x.invoiceId)).toContain(id);
      expect((await t.call('/invoice/v5/list', {}, noRight.token)).bizData.invoices.map((x: { invoiceId: string }) => x.invoiceId)).not.toContain(id);
      expect((await t.call('/invoice/v5/download', { invoiceId: id }, member.token)).bizData.code).toBe('invoice.noPdf');
      // re-issue before it was issued: refused with the status's name
      expect((await t.call('/invoice/v5/reCreate', { invoiceId: id }, member.token, 'en')).msg).toBe('An invoice that is invoicing cannot be re-issued');

      await expect(inv.issue(id, Buffer.from('not a pdf'))).rejects.toThrow('not a PDF');
      expect((await inv.issue(id, PDF)).status).toBe(S.INVOICED);
      expect((await lastMailTo(member.email))!.subject).toBe(`发票 ${id} 已开具`);
      for (const who of [member, admin]) {
        const { url } = (await t.call('/invoice/v5/download', { invoiceId: id }, who.token)).bizData;
        const got = await t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') });
        expect(got.statusCode).toBe(200);
        expect(got.rawPayload.equals(PDF)).toBe(true);
      }
      await expect(inv.issue(id, PDF)).rejects.toThrow('cannot issue');

      expect((await t.call('/invoice/v5/reCreate', { invoiceId: id }, member.token)).bizData.status).toBe(S.REISSUING);
      expect((await t.call('/invoice/v5/list', { status: S.REISSUING }, member.token)).bizData.invoices.map((x: { invoiceId: string }) => x.invoiceId)).toEqual([id]);
      expect((await inv.fail(id, 'tax id does not match')).status).toBe(S.FAILED);
      expect((await lastMailTo(member.email))!.text).toContain('tax id does not match');
      expect((await t.call('/invoice/v5/detail', { invoiceId: id }, member.token)).bizData).toMatchObject({ status: S.FAILED, reason: 'tax id does not match' });
      expect((await t.call('/invoice/v5/reCreate', { invoiceId: id }, admin.token)).bizData).toMatchObject({ status: S.REISSUING, reason: null });
      expect((await inv.issue(id, PDF)).status).toBe(S.INVOICED);
      // still on the order while live
      expect((await t.call('/invoice/v5/create', { orderIds: [o], titleId }, member.token)).bizData.code).toBe('invoice.orderAlreadyInvoiced');
      expect((await inv.void(id)).status).toBe(S.VOIDED);
      await expect(inv.void(id)).rejects.toThrow('cannot void');
      expect((await t.call('/invoice/v5/reCreate', { invoiceId: id }, member.token, 'en')).msg).toBe('An invoice that is voided cannot be re-issued');
      const mine = (await t.call('/invoice/v5/orders', {}, member.token)).bizData.orders.find((x: { orderId: string }) => x.orderId === o);
      expect(mine).toMatchObject({ invoiceStatus: S.NOT_INVOICED, invoiceId: null });
      expect((await t.call('/invoice/v5/create', { orderIds: [o], titleId }, member.token)).bizData.status).toBe(S.INVOICING);
    });

    it('every company and invoice path is in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of [...Object.values(COMPANY_PATHS), ...Object.values(INVOICE_PATHS)]) expect(doc.paths[p], p).toBeTruthy();
    });

    it('the operator cannot fail an issued invoice, nor issue a voided one', async () => {
      const id = (await inv.create(member.id, { orderIds: [await paidOrder(member)], titleId })).invoiceId;
      await inv.issue(id, PDF);
      await expect(inv.fail(id, 'x')).rejects.toThrow('cannot fail');
      await inv.void(id);
      await expect(inv.issue(id, PDF)).rejects.toThrow('cannot issue');
    });
  });
}
