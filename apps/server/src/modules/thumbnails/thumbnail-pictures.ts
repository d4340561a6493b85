import { createHash } from 'node:crypto';
import type { AppDeps } from '../../app.deps.ts';
import { pictureBaseName } from '@cadcloud/cad';
import { createPictureFinder, pictureStemOf } from '../drawings/picture-finder.ts';
import type { createThumbnailsRepository, DrawingItem } from './thumbnails.repository.ts';
import type { ThumbnailVariants } from './thumbnail-variants.ts';
import { DRAWING_TYPES, parseThumbkey, THUMBNAIL_SIZE, THUMBNAIL_VERSION, thumbkeyOf, thumbnailPicturesKey, thumbnailStorageKey } from './thumbnails.keys.ts';
import { workerMemory } from '../../infra/workers/worker-budget.ts';
import { renderDrawingThumbnail, THUMBNAIL_YIELD_MAX_MS } from './render/render-drawing.ts';
import { sharedSceneBuilder } from '../drawings/scene-builder.ts';
import { thickenedPng } from './render/thicken.ts';
import { ThumbnailSkipped } from './render/thumbnail-skipped.ts';

/**
 * Thumbnails of drawings whose IMAGEs show pictures. The plain thumbnail belongs to the bytes and is shared by
 * every file with them; pictures come from each file's owner's drive (as the viewer's, drawings/picture-finder.ts),
 * so a file whose owner has them gets its own variant, keyed by the picture contents, attached to that file alone:
 * one user's pictures never appear on another user's thumbnail.
 */
export function createPictureThumbnails(
  deps: Pick<AppDeps, 'db' | 'storage' | 'config'>,
  repo: ReturnType<typeof createThumbnailsRepository>,
  variants: ThumbnailVariants,
  readBlob: (md5: string, max: number) => Promise<Buffer>,
) {
  const finder = createPictureFinder(deps);
  const cfg = deps.config;

  /** The names noted before the drawing_pictures table, as JSON beside the thumbnail; read once and moved into the table. */
  async function legacyNames(md5: string): Promise<string[]> {
    const key = thumbnailPicturesKey(md5);
    if (!(await deps.storage.exists(key))) return [];
    const parts: Buffer[] = [];
    for await (const c of await deps.storage.get(key)) parts.push(c as Buffer);
    const names = JSON.parse(Buffer.concat(parts).toString('utf8')) as string[];
    if (names.length) await remember(md5, names);
    return names;
  }

  /**
   * Notes the pictures a drawing's rendering found (none: no rows), for files with these bytes uploaded later and
   * for pictures arriving later (`drawingsNaming`). Lower-cased: the finder and the renderer ignore case.
   */
  async function remember(md5: string, names: string[]) {
    const lower = [...new Set(names.map((n) => pictureBaseName(n).toLowerCase()).filter(Boolean))];
    await repo.setPictureNames(md5, lower.map((name) => ({ name, stem: pictureStemOf(name) })));
  }

  /**
   * Shows on one file the thumbnail its owner's pictures call for: its variant (rendered once) when some are found,
   * else the plain one (a picture deleted or renamed away). Touches the file only when that changes. Returns whether it did.
   * The variant it showed before goes from storage when no file shows it any more.
   */
  async function showOwnPictures(item: DrawingItem, md5: string, names: string[]): Promise<boolean> {
    const found: [string, { blob_md5: string }][] = [];
    for (const name of names) {
      const row = await finder.find(item.uid, item.parent_id, name);
      if (row) found.push([name.toLowerCase(), row]);
    }
    let thumbkey: string;
    if (found.length) {
      const id = createHash('sha1').update(found.map(([n, r]) => `${n}=${r.blob_md5}`).sort().join('\n')).digest('hex').slice(0, 16);
      thumbkey = thumbkeyOf(md5, 'drawing', THUMBNAIL_VERSION, id);
      const key = thumbnailStorageKey(thumbkey);
      // noted before it may be stored: a crash between the put and the attach still leaves it to its blob's purge
      await variants.record(thumbkey, md5);
      if (!(await deps.storage.exists(key))) {
        try {
          const pictures: Record<string, Uint8Array> = {};
          for (const [n, r] of found) pictures[n] = await readBlob(r.blob_md5, cfg.thumbnailMaxPictureSize);
          const drawing = await readBlob(md5, cfg.thumbnailMaxDrawingSize);
          // background work: yields to opens as the plain thumbnail does (thumbnails.service.ts)
          const r = await sharedSceneBuilder(deps).yielding(THUMBNAIL_YIELD_MAX_MS, (signal) => renderDrawingThumbnail(drawing, { size: THUMBNAIL_SIZE, timeoutMs: cfg.thumbnailTimeoutMs, memoryMb: cfg.thumbnailMemoryMb, pictures, memory: workerMemory(cfg), signal }));
          const image = await thickenedPng(r.png, THUMBNAIL_SIZE);
          await deps.storage.put(key, image, { size: image.length, contentType: 'image/png' });
        } catch (e) {
          // the thumbnail it shows stays
          if (!(e instanceof ThumbnailSkipped)) throw e;
          console.warn(`thumbnail of ${md5} with pictures skipped: ${e.message}`);
          return false;
        }
      }
    } else {
      // none of its pictures any more: back to the plain thumbnail, if it showed a variant and the plain one is stored
      if (!item.thumbkey || !parseThumbkey(item.thumbkey)?.pictures) return false;
      thumbkey = thumbkeyOf(md5, 'drawing');
      if (!(await deps.storage.exists(thumbnailStorageKey(thumbkey)))) return false;
    }
    if (thumbkey === item.thumbkey) return false;
    const before = await repo.attachToItem(item.id, item.uid, thumbkey);
    // noted again once shown: a release that forgot it between the note above and the attach must not leave it unnoted
    if (parseThumbkey(thumbkey)?.pictures) await variants.record(thumbkey, md5);
    await variants.release([before]);
    return true;
  }

  return {
    remember,
    /** The pictures noted for a drawing blob (lower-cased base names; none when it shows none or was never rendered). */
    async namesOf(md5: string): Promise<string[]> {
      const names = await repo.pictureNames(md5);
      return names.length ? names : legacyNames(md5);
    },
    /** For each file with these bytes (or just `itemId`) whose owner has some of the pictures: its variant, rendered once. */
    async attachVariants(md5: string, names: string[], itemId?: string): Promise<number> {
      if (!names.length) return 0;
      let attached = 0;
      for (const item of await repo.itemsWithBlob(md5, itemId)) if (await showOwnPictures(item, md5, names)) attached++;
      return attached;
    },
    /**
     * Pictures of these file names came, went or moved in one user's drive: that user's drawings naming a picture of
     * such a name show the thumbnail their pictures now call for. Nobody else's files are read or touched.
     */
    async refreshDrawingsNaming(uid: string, pictureNames: string[]): Promise<{ drawings: number; changed: number }> {
      const stems = [...new Set(pictureNames.map(pictureStemOf).filter(Boolean))];
      const drawings = new Map<string, DrawingItem & { blob_md5: string }>();
      // a folder of thousands of pictures binned or restored: a bounded number of parameters per query
      for (let i = 0; i < stems.length; i += 500) for (const d of await repo.drawingsNamingPictures(uid, stems.slice(i, i + 500))) drawings.set(d.id, d);
      let changed = 0;
      for (const d of drawings.values()) if (await showOwnPictures(d, d.blob_md5, await repo.pictureNames(d.blob_md5))) changed++;
      return { drawings: drawings.size, changed };
    },
    /** Moves the pictures noted as JSON (before the table) into the table, `batch` drawing blobs at a time. */
    async indexLegacyNames(batch = 500): Promise<number> {
      let moved = 0;
      for (let after = ''; ; ) {
        const md5s = await repo.drawingBlobsAfter(after, DRAWING_TYPES, batch);
        if (!md5s.length) return moved;
        for (const md5 of md5s) if (!(await repo.pictureNames(md5)).length && (await legacyNames(md5)).length) moved++;
        after = md5s[md5s.length - 1];
      }
    },
  };
}
