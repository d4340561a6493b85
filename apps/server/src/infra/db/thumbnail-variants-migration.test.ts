import { expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { testDatabaseDrivers } from './test-databases.ts';
import { migrations } from './migrations/index.ts';
import { migrateToLatest } from './migrate.ts';
import { schemaOf } from './db.ts';

/** The variants files showed before migrations/20261125T010000-thumbnail-variants.ts are noted by it, once each. */
for (const d of testDatabaseDrivers()) it(`notes the variants files show when thumbnail_variants is created, on ${d.name}`, async () => {
  const t = await d.create({ migrate: false });
  const schema = schemaOf(t.db);
  const m = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  expect((await m.migrateTo('20261123T150000-drawing-pictures')).error).toBeUndefined();
  // a user as the schema then wants one: every required column filled
  const users = (await t.db.introspection.getTables()).find((c) => c.name === 'users')!;
  const u: Record<string, unknown> = {};
  for (const c of users.columns) if (!c.isNullable && !c.hasDefaultValue) u[c.name] = c.dataType.match(/int|numeric/) ? 0 : c.name + '-x';
  u.id = 'u1';
  await t.db.insertInto('users').values(u as never).execute();
  const a = 'a'.repeat(32), b = 'b'.repeat(32);
  const item = (id: string, md5: string | null, thumbkey: string | null) => ({ id, uid: 'u1', parent_id: '0', kind: 1, name: id, type: 'dxf', created_at: 1, modified_at: 1, blob_md5: md5, thumbkey });
  await t.db.insertInto('items').values([
    item('i1', a, `v1-${a}-p0123456789abcdef.png`), item('i2', a, `v1-${a}-p0123456789abcdef.png`), item('i3', a, `v1-${a}.png`),
    item('i4', b, `v1-${b}-pfedcba9876543210.png`), item('i5', null, null),
  ] as never).execute();
  await migrateToLatest(t.db);
  const rows = await t.db.selectFrom('thumbnail_variants').selectAll().orderBy('thumbkey').execute();
  expect(rows).toEqual([{ thumbkey: `v1-${a}-p0123456789abcdef.png`, blob_md5: a }, { thumbkey: `v1-${b}-pfedcba9876543210.png`, blob_md5: b }]);
  await t.destroy();
});
