import { newId } from '../infra/db/ids.ts';
import { blobKey } from '../infra/storage/storage-keys.ts';
import { createBlobsService } from '../modules/blobs/blobs.service.ts';
import { md5, type TestApp } from './fixtures.ts';

/**
 * A file put in the drive without the upload's checks (which refuse 0 bytes, and drawings over the limits): bytes
 * stored by md5, its blob counted, the item in the folder.
 */
export async function placeDirectly(t: TestApp, uid: string, parentId: string, name: string, body: Buffer): Promise<{ id: string; version: number }> {
  const hash = md5(body);
  const blobs = createBlobsService(t.deps);
  if (!(await blobs.find(hash))) {
    await t.deps.storage.put(blobKey(hash), body, { size: body.length, contentType: 'application/octet-stream' });
    await blobs.register(hash, body.length);
  }
  await blobs.addRef(hash);
  const now = Date.now();
  const id = newId();
  await t.db.db.insertInto('items').values({
    id, uid, parent_id: parentId, kind: 1, name, type: name.split('.').pop()!, size: body.length, blob_md5: hash, version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null,
    transform_status: 3, browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null,
  }).execute();
  return { id, version: 1 };
}
