import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../../admin/admin.cli.ts';
import { loadConfig } from '../../infra/config/index.ts';
import { createDatabase, createMailer, createStorage, listOutbox } from '../../infra/index.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createDbQueue } from '../../infra/queue/db.queue.ts';
import { createOrdersService } from '../orders/orders.service.ts';
import { createInvoicesService } from './invoices.service.ts';

describe('admin company and invoice commands', () => {
  it('creates a company with its admin, invites a member, and issues / fails / voids invoices by id', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-admin-invoices-'));
    const env = { DATA_DIR: dir, DATABASE_URL: '' };
    const admin = (...args: string[]): Promise<any> => runAdmin(args, env);
    const boss = await admin('user', 'create', '--email', 'boss@example.com', '--password', 'longenough1');
    const c = await admin('company', 'create', '--name', 'Acme', '--admin', 'boss@example.com', '--tax-id', 'T1');
    expect(c).toMatchObject({ name: 'Acme', admin: { email: 'boss@example.com', role: 'admin', status: 'active' } });
    expect(await admin('company', 'invite', '--company', c.companyId, '--email', 'New@Example.com', '--may-invoice')).toMatchObject({ email: 'new@example.com', mayInvoice: true, status: 'invited' });
    expect(await admin('company', 'list')).toEqual([expect.objectContaining({ name: 'Acme', active: 1, invited: 1 })]);
    await expect(admin('company', 'invite', '--company', 'nope', '--email', 'x@example.com')).rejects.toThrow('no company nope');

    const config = loadConfig(env);
    const db = createDatabase(config.databaseUrl);
    try {
      expect((await listOutbox(db)).find((m) => m.to_addr === 'new@example.com')!.text).toContain('/invoice/index?acceptInvite=');
      await createMembershipService({ db, config }).ensureCatalog();
      const orders = createOrdersService({ db, config, queue: createDbQueue(db) }, { log: () => {} });
      const o = (await orders.create(boss.id, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr', currency: 'CNY' })).order;
      await orders.applyEvent('sandbox', { eventId: 'e1', orderId: o.orderId, providerTradeId: 't', kind: 'paid', amountMinor: 1500, currency: 'CNY', at: Date.now() });
      const inv = createInvoicesService({ db, config, mailer: createMailer(config, db), storage: createStorage(config) });
      const title = await inv.saveTitle(boss.id, { name: 'Acme', taxId: 'T1', address: '', phone: '', bank: '', account: '' });
      const id = (await inv.create(boss.id, { orderIds: [o.orderId], titleId: title.titleId })).invoiceId;
      expect((await admin('invoice', 'list', '--status', '2')).map((x: { invoiceId: string }) => x.invoiceId)).toEqual([id]);
      await expect(admin('invoice', 'list', '--status', '7')).rejects.toThrow('--status must be an invoice status 1-5');
      expect(await admin('invoice', 'fail', id, '--reason', 'wrong tax id')).toMatchObject({ status: 3, reason: 'wrong tax id' });
      await inv.reCreate(boss.id, id, 'en');
      const pdf = path.join(dir, 'inv.pdf');
      writeFileSync(pdf, '%PDF-1.4\n%%EOF\n');
      expect(await admin('invoice', 'issue', id, '--pdf', pdf)).toMatchObject({ status: 1, hasPdf: true });
      expect((await listOutbox(db)).find((m) => m.to_addr === 'boss@example.com')!.subject).toContain(id);
      expect(await admin('invoice', 'void', id)).toMatchObject({ status: 5 });
      await expect(admin('invoice', 'void', id)).rejects.toThrow('cannot void');
    } finally {
      await db.destroy();
    }
  });
});
