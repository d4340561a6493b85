import type { AppDeps } from '../../app.deps.ts';
import { createThumbnailsRepository } from './thumbnails.repository.ts';
import { parseThumbkey, thumbnailStorageKey } from './thumbnails.keys.ts';

/**
 * The stored thumbnails drawn with an owner's pictures (thumbnail-pictures.ts). Unlike the plain thumbnail, which
 * goes with its blob, a variant can stop being shown while the blob lives on (its pictures binned, the drawing moved),
 * and storage cannot list what is stored: each variant is noted in `thumbnail_variants` when it is stored, so it can
 * be deleted once no file shows it, and with its blob.
 *
 * Deleting races a variant being attached to another file (its image found stored, the file's thumbkey not yet set):
 * references are checked again right before deleting, and a variant found missing after all is drawn again
 * (thumbnails.service open()). Any doubt leaves an orphan, which the blob's purge still removes (its row stays).
 */
export function createThumbnailVariants(deps: Pick<AppDeps, 'db' | 'storage'>, repo = createThumbnailsRepository(deps.db)) {
  return {
    /** Notes a variant before its image is stored (a crash after the put leaves a noted orphan, not a lost one). */
    async record(thumbkey: string, md5: string): Promise<void> {
      await repo.recordVariant(thumbkey, md5);
    },

    /**
     * Thumbkeys files stopped showing: the variants among them that no file (any user, trash included) shows any more
     * are deleted, image first, then the row (kept if a file took the variant meanwhile). Never fails the caller:
     * a leftover image is only space, and the blob's purge takes it.
     */
    async release(thumbkeys: Iterable<string | null | undefined>): Promise<number> {
      let deleted = 0;
      for (const thumbkey of new Set(thumbkeys)) {
        const p = thumbkey ? parseThumbkey(thumbkey) : null;
        if (!thumbkey || !p?.pictures) continue;
        try {
          if (await repo.anyFileShows(p.md5, thumbkey)) continue;
          await deps.storage.delete(thumbnailStorageKey(thumbkey));
          await repo.forgetVariant(thumbkey, p.md5);
          deleted++;
        } catch (e) {
          console.warn(`thumbnail variant ${thumbkey}: not deleted`, e);
        }
      }
      return deleted;
    },

    /** A purged blob's variants: no file has its bytes any more, so none shows them. */
    async purgeBlob(md5: string): Promise<void> {
      for (const thumbkey of await repo.variantsOf(md5)) {
        try {
          await deps.storage.delete(thumbnailStorageKey(thumbkey));
          await repo.forgetVariant(thumbkey, md5);
        } catch (e) {
          console.warn(`thumbnail variant ${thumbkey} of purged ${md5}: not deleted`, e);
        }
      }
    },
  };
}

export type ThumbnailVariants = ReturnType<typeof createThumbnailVariants>;
