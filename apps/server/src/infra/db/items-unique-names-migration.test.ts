import { expect, it } from 'vitest';
import { Migrator } from 'kysely';
import { testDatabaseDrivers } from './test-databases.ts';
import { migrations } from './migrations/index.ts';
import { migrateToLatest } from './migrate.ts';
import { isUniqueViolation, schemaOf } from './db.ts';

/**
 * migrations/20261126T030000-items-unique-names.ts on a drive the old code could leave behind: twins of one live
 * name in a folder, and parent loops. The twins get "name (n)", each loop is cut (one folder back at the top
 * level), and from then on a second live item of a name in a folder is refused by the database.
 */
for (const d of testDatabaseDrivers()) it(`renames duplicate live names and cuts parent loops before the unique index, on ${d.name}`, async () => {
  const t = await d.create({ migrate: false });
  const schema = schemaOf(t.db);
  const m = new Migrator({ db: t.db, provider: { getMigrations: async () => migrations }, ...(schema ? { migrationTableSchema: schema } : {}) });
  expect((await m.migrateTo('20261125T010000-thumbnail-variants')).error).toBeUndefined();
  const users = (await t.db.introspection.getTables()).find((c) => c.name === 'users')!;
  for (const id of ['u1', 'u2']) {
    const u: Record<string, unknown> = {};
    for (const c of users.columns) if (!c.isNullable && !c.hasDefaultValue) u[c.name] = c.dataType.match(/int|numeric/) ? 0 : `${c.name}-${id}`;
    u.id = id;
    await t.db.insertInto('users').values(u as never).execute();
  }
  let at = 0;
  const item = (id: string, o: { uid?: string; parent?: string; kind?: number; name: string; deleted?: boolean }) => ({
    id, uid: o.uid ?? 'u1', parent_id: o.parent ?? '0', kind: o.kind ?? 1, name: o.name, type: o.kind === 0 ? 'folder' : 'dwg', created_at: ++at, modified_at: at, deleted_at: o.deleted ? at : null,
  });
  await t.db.insertInto('items').values([
    // three live "plan.dwg" at the top, one "plan (1).dwg" already there, a binned one that does not count
    item('p1', { name: 'plan.dwg' }), item('p2', { name: 'plan.dwg' }), item('p3', { name: 'plan.dwg' }), item('p4', { name: 'plan (1).dwg' }), item('p5', { name: 'plan.dwg', deleted: true }),
    // a folder and a file of one name: the folder keeps it; another user's "plan.dwg" is no twin; names differ in case
    item('f1', { name: 'Docs' }), item('f2', { name: 'Docs', kind: 0 }), item('o1', { uid: 'u2', name: 'plan.dwg' }), item('c1', { name: 'PLAN.dwg' }),
    // A → B → A, C below B; S its own parent; an older "A" at the top, so the A cut loose comes back as "A (1)"
    item('top-A', { name: 'A', kind: 0 }),
    item('A', { name: 'A', kind: 0, parent: 'B' }), item('B', { name: 'B', kind: 0, parent: 'A' }), item('C', { name: 'C', kind: 0, parent: 'B' }), item('S', { name: 'S', kind: 0, parent: 'S' }),
  ] as never).execute();

  await migrateToLatest(t.db);

  const rows = new Map((await t.db.selectFrom('items').select(['id', 'name', 'parent_id']).execute()).map((r) => [r.id, r]));
  expect(['p1', 'p2', 'p3', 'p4', 'p5'].map((id) => rows.get(id)!.name)).toEqual(['plan.dwg', 'plan (2).dwg', 'plan (3).dwg', 'plan (1).dwg', 'plan.dwg']);
  expect([rows.get('f2')!.name, rows.get('f1')!.name, rows.get('o1')!.name, rows.get('c1')!.name]).toEqual(['Docs', 'Docs (1)', 'plan.dwg', 'PLAN.dwg']);
  // the loop A ↔ B is cut at A (the first id): A is at the top again, under a free name beside the other "A"
  expect(rows.get('A')).toMatchObject({ parent_id: '0', name: 'A (1)' });
  expect(rows.get('B')!.parent_id).toBe('A');
  expect(rows.get('C')!.parent_id).toBe('B');
  expect(rows.get('S')!.parent_id).toBe('0');
  expect(rows.get('top-A')!.name).toBe('A');

  const twin = t.db.insertInto('items').values(item('p6', { name: 'plan.dwg' }) as never).execute();
  await expect(twin).rejects.toSatisfy(isUniqueViolation);
  // binned items keep any name
  await t.db.insertInto('items').values(item('p7', { name: 'plan.dwg', deleted: true }) as never).execute();
  await t.destroy();
});
