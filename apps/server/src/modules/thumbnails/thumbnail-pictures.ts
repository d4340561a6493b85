import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app.deps.ts';
import { createPictureFinder } from '../drawings/picture-finder.ts';
import type { createThumbnailsRepository } from './thumbnails.repository.ts';
import { THUMBNAIL_SIZE, THUMBNAIL_VERSION, thumbkeyOf, thumbnailPicturesKey, thumbnailStorageKey } from './thumbnails.keys.ts';
import { renderDrawingThumbnail } from './render/render-drawing.ts';
import { thickenedPng } from './render/thicken.ts';
import { ThumbnailSkipped } from './render/thumbnail-skipped.ts';

/**
 * Thumbnails of drawings whose IMAGEs show pictures. The plain thumbnail belongs to the bytes and is shared by
 * every file with them; pictures come from each file's owner's drive (as the viewer's, drawings/picture-finder.ts),
 * so a file whose owner has them gets its own variant, keyed by the picture contents, attached to that file alone:
 * one user's pictures never appear on another user's thumbnail.
 */
export function createPictureThumbnails(deps: Pick<AppDeps, 'db' | 'storage' | 'config'>, repo: ReturnType<typeof createThumbnailsRepository>, readBlob: (md5: string, max: number) => Promise<Buffer>) {
  const finder = createPictureFinder(deps);
  const cfg = deps.config;

  return {
    /** Notes the pictures a drawing's rendering found (nothing when none), for files with these bytes uploaded later. */
    async remember(md5: string, names: string[]) {
      if (!names.length) return;
      const body = Buffer.from(JSON.stringify(names));
      await deps.storage.put(thumbnailPicturesKey(md5), body, { size: body.length, contentType: 'application/json' });
    },
    async namesOf(md5: string): Promise<string[]> {
      const key = thumbnailPicturesKey(md5);
      if (!(await deps.storage.exists(key))) return [];
      const parts: Buffer[] = [];
      for await (const c of await deps.storage.get(key)) parts.push(c as Buffer);
      return JSON.parse(Buffer.concat(parts).toString('utf8')) as string[];
    },
    /** For each file with these bytes (or just `itemId`) whose owner has some of the pictures: its variant, rendered once. */
    async attachVariants(md5: string, names: string[], itemId?: string): Promise<number> {
      if (!names.length) return 0;
      let attached = 0;
      for (const item of await repo.itemsWithBlob(md5, itemId)) {
        const found: [string, { blob_md5: string }][] = [];
        for (const name of names) {
          const row = await finder.find(item.uid, item.parent_id, name);
          if (row) found.push([name.toLowerCase(), row]);
        }
        if (!found.length) continue;
        const id = createHash('sha1').update(found.map(([n, r]) => `${n}=${r.blob_md5}`).sort().join('\n')).digest('hex').slice(0, 16);
        const thumbkey = thumbkeyOf(md5, 'drawing', THUMBNAIL_VERSION, id);
        const key = thumbnailStorageKey(thumbkey);
        if (!(await deps.storage.exists(key))) {
          try {
            const pictures: Record<string, Uint8Array> = {};
            for (const [n, r] of found) pictures[n] = await readBlob(r.blob_md5, cfg.thumbnailMaxPictureSize);
            const r = await renderDrawingThumbnail(await readBlob(md5, cfg.thumbnailMaxDrawingSize), { size: THUMBNAIL_SIZE, timeoutMs: cfg.thumbnailTimeoutMs, memoryMb: cfg.thumbnailMemoryMb, pictures });
            const image = await thickenedPng(r.png, THUMBNAIL_SIZE);
            await deps.storage.put(key, image, { size: image.length, contentType: 'image/png' });
          } catch (e) {
            // the plain thumbnail stays on this file
            if (!(e instanceof ThumbnailSkipped)) throw e;
            console.warn(`thumbnail of ${md5} with pictures skipped: ${e.message}`);
            continue;
          }
        }
        await repo.attachToItem(item.id, item.uid, thumbkey);
        attached++;
      }
      return attached;
    },
  };
}
