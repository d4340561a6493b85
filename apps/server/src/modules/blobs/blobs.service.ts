import type { AppDeps } from '../../app.deps.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { createBlobsRepository } from './blobs.repository.ts';
import { thumbnailStorageKeysOf } from '../thumbnails/thumbnails.keys.ts';
import { glbKey, lodKey } from '../model3d/model3d.keys.ts';
import { createThumbnailVariants } from '../thumbnails/thumbnail-variants.ts';

/**
 * Content-addressed file bodies: one stored object per MD5, shared by every item (of any user) with those
 * bytes, counted by reference so the last permanent delete removes the object.
 */
export function createBlobsService(deps: Pick<AppDeps, 'db' | 'storage'>) {
  const repo = createBlobsRepository(deps.db);
  const variants = createThumbnailVariants(deps);
  return {
    find: repo.find,
    keyOf: blobKey,
    async register(md5: string, size: number) {
      await repo.insertIfAbsent(md5, size, blobKey(md5));
    },
    addRef: repo.addRef,
    async release(md5s: (string | null)[]) {
      const counts = new Map<string, number>();
      for (const m of md5s) if (m) counts.set(m, (counts.get(m) ?? 0) + 1);
      const orphans = await repo.releaseRefs(counts);
      for (const o of orphans) {
        await deps.storage.delete(o.storage_key).catch(() => undefined);
        // a thumbnail shows the same content: it goes with the bytes
        for (const k of thumbnailStorageKeysOf(o.md5)) await deps.storage.delete(k).catch(() => undefined);
        // a 3D model's GLB and its coarse level too
        for (const k of [glbKey(o.md5), lodKey(o.md5)]) await deps.storage.delete(k).catch(() => undefined);
        // and so do the ones drawn with owners' pictures, which only their notes name (storage has no listing)
        await variants.purgeBlob(o.md5);
      }
    },
  };
}

export type BlobsService = ReturnType<typeof createBlobsService>;
