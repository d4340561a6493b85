import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { OrderStatus as S } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createBullmqQueue } from '../../infra/queue/bullmq.queue.ts';
import { createDbQueue } from '../../infra/queue/db.queue.ts';
import type { JobQueue } from '../../infra/queue/queue.types.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerOrdersJobs, type NotificationSender } from './orders.jobs.ts';
import { createOrdersService } from './orders.service.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * The sandbox's notifications delivered by a real worker on each job driver (the database queue, and BullMQ on Redis
 * when TEST_REDIS_URL is set): the first delivery is refused, the next one (4 s later, Alipay's schedule) is
 * acknowledged and the order is paid once.
 */
const drivers: [string, (t: TestApp) => JobQueue][] = [['db', (t) => createDbQueue(t.db.db, { pollMs: 20 })]];
if (redisUrl) drivers.push(['bullmq', () => createBullmqQueue({ redisUrl, prefix: `cc-orders-${randomBytes(4).toString('hex')}`, leaseMs: 2000 })]);

for (const [name, make] of drivers) {
  describe(`sandbox notifications on the ${name} queue`, () => {
    let t: TestApp;
    let queue: JobQueue;
    const calls: number[] = [];
    beforeAll(async () => {
      t = await createTestApp(testDatabaseDrivers()[0]);
      queue = make(t);
      // our notify endpoint answers 503 the first time (a deploy), then normally
      const send: NotificationSender = async (url, rawBody, headers) => {
        calls.push(Date.now());
        if (calls.length === 1) return { status: 503, body: 'busy' };
        const r = await t.app.inject({ method: 'POST', url: new URL(url).pathname, payload: rawBody, headers });
        return { status: r.statusCode, body: r.body };
      };
      registerOrdersJobs(queue, { ...t.deps, queue }, { send });
      await queue.start();
    });
    afterAll(async () => {
      await queue?.stop();
      await t?.close();
    });

    it('approve → delivered by the worker, retried 4 s after a refusal, paid and granted once', async () => {
      const u = await t.createUser();
      const orders = createOrdersService({ ...t.deps, queue }, { log: () => {} });
      const { order } = await orders.create(u.id, { planCode: 'ML1', payWay: 2, clientType: 11, mode: 'qr', currency: 'USD' });
      await orders.providers.sandbox().play(order.orderId, 'approve');
      const paid = await until(async () => {
        const r = await t.db.db.selectFrom('orders').selectAll().where('id', '=', order.orderId).executeTakeFirstOrThrow();
        return r.status === S.PAID ? r : undefined;
      }, 20_000);
      expect(paid.pay_status).toBe(1);
      expect(calls).toHaveLength(2);
      expect(calls[1] - calls[0]).toBeGreaterThanOrEqual(3900);
      expect(await t.db.db.selectFrom('entitlements').selectAll().where('source_id', '=', order.orderId).execute()).toHaveLength(1);
    }, 30_000);
  });
}
