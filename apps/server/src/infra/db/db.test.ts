import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDrivers, type TestDatabase } from './test-databases.ts';
import { sql } from 'kysely';
import { createDatabase, dialectOf, isUniqueViolation } from './db.ts';
import { migrateToLatest } from './migrate.ts';
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
      expect(got).toEqual({ ...u, drive_rev: 0, storage_reserved: 0, disabled_at: null, frozen_at: null, purge_warned_at: null, free_unfreeze_until: null, free_unfreeze_used_at: null });
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

    it('inserts, joins and updates across users, blobs and items', async () => {
      const u = user('c@example.com');
      await t.db.insertInto('users').values(u).execute();
      const big = 5 * 1024 ** 3; // 5 GB: beyond 32-bit, still a plain number
      await t.db.insertInto('blobs').values({ md5: 'a'.repeat(32), size: big, storage_key: 'blobs/aa/x', ref_count: 1, created_at: Date.now() }).execute();
      const now = Date.now();
      const item = { id: newId(), uid: u.id, parent_id: '0', kind: 1, name: '图纸.dwg', type: 'dwg', size: big, blob_md5: 'a'.repeat(32), version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null, transform_status: 3, browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null };
      await t.db.insertInto('items').values(item).execute();
      const joined = await t.db
        .selectFrom('items')
        .innerJoin('blobs', 'blobs.md5', 'items.blob_md5')
        .innerJoin('users', 'users.id', 'items.uid')
        .select(['items.name', 'blobs.size', 'users.email'])
        .where('items.id', '=', item.id)
        .executeTakeFirstOrThrow();
      expect(joined).toEqual({ name: '图纸.dwg', size: big, email: 'c@example.com' });
      await t.db.updateTable('users').set((eb) => ({ storage_used: eb('storage_used', '+', big) })).where('id', '=', u.id).execute();
      await t.db.updateTable('items').set({ deleted_at: now + 1, trash_root: item.id }).where('id', '=', item.id).execute();
      expect((await t.db.selectFrom('users').select('storage_used').where('id', '=', u.id).executeTakeFirstOrThrow()).storage_used).toBe(big);
      const live = await t.db.selectFrom('items').select('id').where('uid', '=', u.id).where('deleted_at', 'is', null).execute();
      expect(live).toEqual([]);
    });

    it('enforces foreign keys and cascades the deletion of a user', async () => {
      const orphan = await t.db
        .insertInto('sessions')
        .values({ ticket_hash: newId(), user_id: 'nobody', client_type: 'web', created_at: 1, expires_at: 2 })
        .execute()
        .catch((e) => e);
      expect(orphan).toBeInstanceOf(Error);
      const u = user('d@example.com');
      await t.db.insertInto('users').values(u).execute();
      await t.db.insertInto('sessions').values({ ticket_hash: newId(), user_id: u.id, client_type: 'web', created_at: 1, expires_at: 2 }).execute();
      await t.db.deleteFrom('users').where('id', '=', u.id).execute();
      expect(await t.db.selectFrom('sessions').select('ticket_hash').where('user_id', '=', u.id).execute()).toEqual([]);
    });

    it('keeps a committed transaction and sees its own writes inside', async () => {
      const u = user('e@example.com');
      const seen = await t.db.transaction().execute(async (trx) => {
        await trx.insertInto('users').values(u).execute();
        await trx.updateTable('users').set({ name: 'B' }).where('id', '=', u.id).execute();
        return trx.selectFrom('users').select('name').where('id', '=', u.id).executeTakeFirstOrThrow();
      });
      expect(seen.name).toBe('B');
      expect((await t.db.selectFrom('users').select('name').where('id', '=', u.id).executeTakeFirstOrThrow()).name).toBe('B');
    });

    it('answers COUNT and SUM over bigint columns as numbers', async () => {
      const r = await t.db
        .selectFrom('users')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('storage_quota').as('total')])
        .executeTakeFirstOrThrow();
      expect(typeof r.n).toBe('number');
      expect(typeof r.total).toBe('number');
      expect(r.total).toBe(r.n * 1000);
    });

    it('migrates again without change', async () => {
      await migrateToLatest(t.db);
      expect(dialectOf(t.db)).toBe(driver.name);
    });
  });
}

describe('createDatabase', () => {
  it('opens SQLite with WAL, a busy timeout and foreign keys', async () => {
    const { mkdtempSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-db-'));
    const db = createDatabase(`sqlite:${path.join(dir, 'nested', 'x.sqlite')}`);
    try {
      const one = async (pragma: string) => Object.values((await sql.raw<Record<string, unknown>>(`pragma ${pragma}`).execute(db)).rows[0])[0];
      expect(await one('journal_mode')).toBe('wal');
      expect(await one('foreign_keys')).toBe(1);
      expect(await one('busy_timeout')).toBe(5000);
    } finally {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses an unknown URL naming DATABASE_URL', () => {
    expect(() => createDatabase('mysql://x')).toThrow(/DATABASE_URL/);
  });
});

describe('newId', () => {
  it('is 20 URL-safe characters and does not repeat', () => {
    const ids = Array.from({ length: 2000 }, newId);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
