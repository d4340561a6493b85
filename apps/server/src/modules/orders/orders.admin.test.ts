import { describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../../admin/admin.cli.ts';
import { loadConfig } from '../../infra/config/index.ts';
import { createDatabase } from '../../infra/index.ts';
import { createDbQueue } from '../../infra/queue/db.queue.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createOrdersService } from './orders.service.ts';

describe('admin order list', () => {
  it('lists orders newest first, by user and by status, with amounts and notes', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-admin-orders-'));
    const env = { DATA_DIR: dir, DATABASE_URL: '' };
    const admin = (...args: string[]): Promise<any> => runAdmin(args, env);
    const a = await admin('user', 'create', '--email', 'a@example.com', '--password', 'longenough1');
    const b = await admin('user', 'create', '--email', 'b@example.com', '--password', 'longenough1');
    const config = loadConfig(env);
    const db = createDatabase(config.databaseUrl);
    try {
      const queue = createDbQueue(db);
      await createMembershipService({ db, config }).ensureCatalog();
      const orders = createOrdersService({ db, config, queue }, { log: () => {} });
      const o1 = (await orders.create(a.id, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr', currency: 'CNY' }, { now: 1000 })).order;
      const o2 = (await orders.create(a.id, { planCode: 'ML2', payWay: 3, clientType: 11, mode: 'qr', currency: 'CNY' }, { now: 2000 })).order;
      const o3 = (await orders.create(b.id, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr', currency: 'USD' }, { now: 3000 })).order;
      await orders.applyEvent('sandbox', { eventId: 'e1', orderId: o2.orderId, providerTradeId: 't', kind: 'paid', amountMinor: 15800, currency: 'CNY', at: 2500 }, Date.now());
      expect((await admin('order', 'list')).map((o: { orderId: string }) => o.orderId)).toEqual([o3.orderId, o2.orderId, o1.orderId]);
      const mine = await admin('order', 'list', '--user', 'a@example.com');
      expect(mine.map((o: { orderId: string }) => o.orderId)).toEqual([o2.orderId, o1.orderId]);
      expect(mine[0]).toMatchObject({ plan: 'ML2@1', status: 1, amount: '158 CNY', paid: '158 CNY', provider: 'sandbox', tradeId: 't' });
      expect((await admin('order', 'list', '--status', '0')).map((o: { orderId: string }) => o.orderId)).toEqual([o3.orderId, o1.orderId]);
      await expect(admin('order', 'list', '--status', '9')).rejects.toThrow('--status must be an order status 0-7');
      await expect(admin('order', 'list', '--user', 'nobody@example.com')).rejects.toThrow('no user with e-mail');
    } finally {
      await db.destroy();
    }
  });
});
