import { sql, type Kysely } from 'kysely';

// One live item per name in a folder (per user; names compared exactly, as the drive compares them): parallel
// creates, renames, moves, restores and uploads of one name can no longer make two. What the old code could leave
// behind is mended first: parent loops (two moves A→B and B→A committed together on PostgreSQL) are cut, one folder
// of each going back to the top level where its owner sees it again; then duplicate live names are renamed "name (n)".
export async function up(db: Kysely<any>): Promise<void> {
  await cutParentLoops(db);
  await renameDuplicates(db);
  await db.schema.createIndex('items_uid_parent_name_live').on('items').columns(['uid', 'parent_id', 'name']).unique().where(sql<boolean>`deleted_at is null`).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('items_uid_parent_name_live').execute();
}

async function cutParentLoops(db: Kysely<any>) {
  const folders: { id: string; parent_id: string }[] = await db.selectFrom('items').select(['id', 'parent_id']).where('kind', '=', 0).execute();
  const parent = new Map(folders.map((f) => [f.id, f.parent_id]));
  const done = new Set<string>();
  const cut: string[] = [];
  for (const f of folders) {
    // climb until the top, a folder already climbed from, or one on this climb (a loop)
    const climb: string[] = [];
    const onClimb = new Set<string>();
    let at: string | undefined = f.id;
    while (at !== undefined && parent.has(at) && !done.has(at) && !onClimb.has(at)) {
      climb.push(at);
      onClimb.add(at);
      at = parent.get(at);
    }
    if (at !== undefined && onClimb.has(at)) cut.push(climb.slice(climb.indexOf(at)).sort()[0]);
    for (const id of climb) done.add(id);
  }
  for (const id of cut) await db.updateTable('items').set({ parent_id: '0' }).where('id', '=', id).execute();
}

async function renameDuplicates(db: Kysely<any>) {
  const groups: { uid: string; parent_id: string; name: string }[] = await db
    .selectFrom('items')
    .select(['uid', 'parent_id', 'name'])
    .where('deleted_at', 'is', null)
    .groupBy(['uid', 'parent_id', 'name'])
    .having(sql`count(*)`, '>', 1)
    .execute();
  for (const g of groups) {
    const inFolder: { id: string; name: string; kind: number; created_at: number }[] = await db
      .selectFrom('items')
      .select(['id', 'name', 'kind', 'created_at'])
      .where('uid', '=', g.uid)
      .where('parent_id', '=', g.parent_id)
      .where('deleted_at', 'is', null)
      .execute();
    const taken = new Set(inFolder.map((r) => r.name));
    // the folder, then the oldest, keeps the name
    const same = inFolder.filter((r) => r.name === g.name).sort((a, b) => a.kind - b.kind || Number(a.created_at) - Number(b.created_at) || (a.id < b.id ? -1 : 1));
    for (const r of same.slice(1)) {
      const name = freeName(r.name, taken, r.kind === 0);
      taken.add(name);
      await db.updateTable('items').set({ name }).where('id', '=', r.id).execute();
    }
  }
}

/** "plan.dwg" → "plan (1).dwg" …: the rule of modules/files/item-names.ts, kept here as it was when this ran (the extension keeps its case). */
function freeName(name: string, taken: Set<string>, isFolder: boolean): string {
  const dot = name.lastIndexOf('.');
  const ext = isFolder || dot <= 0 || dot === name.length - 1 ? '' : name.slice(dot);
  const stem = name.slice(0, name.length - ext.length);
  for (let i = 1; ; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
