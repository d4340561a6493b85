import type { Kysely } from 'kysely';
import type { Database } from '../infra/db/schema.ts';
import type { StorageDriver } from '../infra/storage/storage.types.ts';

/**
 * Unreferenced blobs (`admin storage gc`): objects under `blobs/` that no blob row names, and blob rows nothing
 * refers to any more (ref_count 0 left by a crash between the last release and the delete). Anything younger than
 * `graceMs` is left alone: an upload stores its object first and records it a moment later.
 */
export async function collectGarbage(db: Kysely<Database>, storage: StorageDriver, o: { dryRun: boolean; graceMs?: number; now?: number }) {
  const before = (o.now ?? Date.now()) - (o.graceMs ?? 3600_000);
  const known = new Set((await db.selectFrom('blobs').select('storage_key').execute()).map((b) => b.storage_key));
  const orphans: { key: string; size: number }[] = [];
  for await (const obj of storage.list('blobs/')) {
    if (!known.has(obj.key) && obj.modifiedAt < before) orphans.push({ key: obj.key, size: obj.size });
  }
  const unreferenced = await db.selectFrom('blobs').select(['md5', 'storage_key', 'size']).where('ref_count', '<=', 0).where('created_at', '<', before).execute();
  if (!o.dryRun) {
    for (const b of unreferenced) {
      // the row goes only if it is still unreferenced at this moment; its object goes with it
      const r = await db.deleteFrom('blobs').where('md5', '=', b.md5).where('ref_count', '<=', 0).executeTakeFirst();
      if (Number(r.numDeletedRows) === 1) await storage.delete(b.storage_key);
    }
    for (const obj of orphans) {
      // recorded meanwhile (an instant re-upload of the same bytes): keep it
      const row = await db.selectFrom('blobs').select('md5').where('storage_key', '=', obj.key).executeTakeFirst();
      if (!row) await storage.delete(obj.key);
    }
  }
  const items = [...orphans.map((x) => ({ key: x.key, size: x.size, why: 'no blob row' })), ...unreferenced.map((b) => ({ key: b.storage_key, size: Number(b.size), why: 'no file refers to it' }))];
  return { dryRun: o.dryRun, objects: items.length, bytes: items.reduce((n, x) => n + x.size, 0), items: items.slice(0, 100) };
}
