import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDrivers, type TestDatabase } from './test-databases.ts';
import { isUniqueViolation } from './db.ts';
import { newId } from './ids.ts';

for (const driver of testDatabaseDrivers()) {
  describe(`database on ${driver.name}`, () => {
    let t: TestDatabase;
    beforeAll(async () => {
      t = await driver.create();
    });
    afterAll(async () => t?.destroy());

    const user = (email: string) => ({ id: newId(), sso_sub: newId(), email, name: 'A', vip_type: 0, storage_quota: 1000, storage_used: 0, freeze: 0, created_at: Date.now() });

    it('round-trips rows with bigint times as numbers', async () => {
      const u = user('a@example.com');
      await t.db.insertInto('users').values(u).execute();
      const got = await t.db.selectFrom('users').selectAll().where('id', '=', u.id).executeTakeFirstOrThrow();
      expect(got).toEqual({ ...u, drive_rev: 0 });
      expect(typeof got.created_at).toBe('number');
    });

    it('reports a unique violation in a dialect-independent way', async () => {
      const err = await t.db.insertInto('users').values(user('a@example.com')).execute().catch((e) => e);
      expect(isUniqueViolation(err)).toBe(true);
    });

    it('rolls a failed transaction back whole', async () => {
      const u = user('b@example.com');
      await t.db
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('users').values(u).execute();
          throw new Error('boom');
        })
        .catch(() => undefined);
      expect(await t.db.selectFrom('users').select('id').where('id', '=', u.id).executeTakeFirst()).toBeUndefined();
    });

    it('keeps an auto-increment id in the outbox', async () => {
      const row = { to_addr: 'x@example.com', subject: 's', text: 't', html: null, status: 'stored', error: null, created_at: Date.now() };
      const a = await t.db.insertInto('mail_outbox').values(row).returning('id').executeTakeFirstOrThrow();
      const b = await t.db.insertInto('mail_outbox').values(row).returning('id').executeTakeFirstOrThrow();
      expect(Number(b.id)).toBeGreaterThan(Number(a.id));
    });
  });
}
