import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DRAWING_PICTURE_TYPES, extensionOf } from '@cadcloud/contracts';
import { NotRevit, readRevitPreview } from '@cadcloud/model3d';
import type { AppDeps } from '../../app.deps.ts';
import { AppError } from '../../infra/http/app-error.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { workerMemory } from '../../infra/workers/worker-budget.ts';
import { createThumbnailsRepository } from './thumbnails.repository.ts';
import { contentTypeOf, parseThumbkey, THUMBNAIL_SIZE, THUMBNAIL_VERSION, thumbkeyOf, thumbnailJobId, thumbnailKindOf, thumbnailStorageKey, type ThumbnailKind } from './thumbnails.keys.ts';
import { renderDrawingThumbnail, THUMBNAIL_YIELD_MAX_MS } from './render/render-drawing.ts';
import { sharedSceneBuilder } from '../drawings/scene-builder.ts';
import { renderPictureThumbnail } from './render/picture-thumbnail.ts';
import { ThumbnailSkipped, ThumbnailTimeout } from './render/thumbnail-skipped.ts';
import { thickenedPng } from './render/thicken.ts';
import { createPictureThumbnails } from './thumbnail-pictures.ts';
import { createThumbnailVariants } from './thumbnail-variants.ts';

export const THUMBNAIL_RENDER_JOB = 'thumbnail.render';
export const THUMBNAIL_PICTURES_JOB = 'thumbnail.pictures';
export const THUMBNAIL_PICTURES_INDEX_JOB = 'thumbnail.picturesIndex';

/**
 * How long a pictures job waits: a folder upload of many pictures is as many events, and the first job, run once
 * they have landed, sees them all (each drawing rendered once with all of them; later jobs find that variant stored).
 */
const PICTURES_SETTLE_MS = 2000;
/** Written when the JSON notes of older renders are all in the table: the index job then has nothing to do. */
const PICTURES_INDEXED_KEY = 'thumbs/pictures-indexed';

export interface RenderJobPayload {
  md5: string;
  /** the item type that asked for it (dwg, dxf, png …): decides drawing or picture */
  type: string;
  /** only this file's thumbnail with pictures (a later upload of bytes already rendered) */
  itemId?: string;
}

/** Pictures of these file names came, went or moved in this user's drive. */
export interface PicturesJobPayload {
  uid: string;
  names: string[];
}

export type RenderJobResult = { thumbkey: string; rendered: boolean; ms: number; attached: number; /** files given a thumbnail with their owner's pictures */ withPictures?: number } | { skipped: string };

/** What an upload hands over: the new file item. */
interface NewItem {
  id: string;
  uid: string;
  name: string;
  type: string;
  blob_md5: string | null;
}

/** the PNG preview embedded in a Revit file; none (or not a Revit file): no thumbnail */
function revitPreview(bytes: Buffer): Uint8Array {
  let png: Uint8Array | null;
  try {
    png = readRevitPreview(bytes);
  } catch (e) {
    if (e instanceof NotRevit) throw new ThumbnailSkipped(`not a Revit file: ${e.message}`);
    throw e;
  }
  if (!png) throw new ThumbnailSkipped('the Revit file holds no preview image');
  return png;
}

/** Whether a file of this name can be a drawing's picture: the types the finder takes (every image type among them). */
function isPictureName(name: string): boolean {
  return (DRAWING_PICTURE_TYPES as readonly string[]).includes(extensionOf(name));
}

/**
 * Thumbnails: a PNG of each drawing, a WebP of each picture, made once per blob by a background job after the
 * upload, stored beside the blobs, and shown to the owners of files with those bytes.
 */

export function createThumbnailsService(deps: Pick<AppDeps, 'db' | 'storage' | 'queue' | 'config'>) {
  const repo = createThumbnailsRepository(deps.db);
  const cfg = deps.config;

  async function readBlob(md5: string, max: number): Promise<Buffer> {
    const stream: Readable = await deps.storage.get(blobKey(md5));
    const parts: Buffer[] = [];
    let n = 0;
    for await (const chunk of stream) {
      n += (chunk as Buffer).length;
      if (n > max) {
        stream.destroy();
        throw new ThumbnailSkipped(`larger than ${max} bytes`);
      }
      parts.push(chunk as Buffer);
    }
    return Buffer.concat(parts);
  }

  async function render(kind: ThumbnailKind, bytes: Buffer, type: string): Promise<{ image: Buffer; pictureNames: string[]; notDrawn?: Record<string, number> }> {
    if (type.toLowerCase() === 'rvt') return { image: await renderPictureThumbnail(Buffer.from(revitPreview(bytes)), THUMBNAIL_SIZE), pictureNames: [] };
    if (kind === 'picture') return { image: await renderPictureThumbnail(bytes, THUMBNAIL_SIZE), pictureNames: [] };
    // a drawing's thumbnail is background work: it starts when no one waits for a drawing to open (or after a while,
    // so thumbnails still come while opens never stop), not beside an open on the same few cores, and an open that
    // comes while it renders stops it (it renders again afterwards; issue 16 item 14)
    const r = await sharedSceneBuilder(deps).yielding(THUMBNAIL_YIELD_MAX_MS, (signal) => renderDrawingThumbnail(bytes, { size: THUMBNAIL_SIZE, timeoutMs: cfg.thumbnailTimeoutMs, memoryMb: cfg.thumbnailMemoryMb, memory: workerMemory(cfg), signal }));
    return { image: await thickenedPng(r.png, THUMBNAIL_SIZE), pictureNames: r.pictureNames, notDrawn: r.notDrawn };
  }
  const variants = createThumbnailVariants(deps, repo);
  const withPictures = createPictureThumbnails(deps, repo, variants, readBlob);

  /** Queues the refresh of this user's drawings naming pictures of these names; never fails the caller. */
  async function picturesChanged(uid: string, fileNames: string[]): Promise<void> {
    const names = [...new Set(fileNames.filter(isPictureName).map((n) => n.toLowerCase()))].sort();
    if (!names.length) return;
    try {
      // one job per event (a completed job's id is never run again); the payload names the user, so it reads that drive alone
      const tag = createHash('sha1').update(names.join('\n')).digest('hex').slice(0, 12);
      await deps.queue.enqueue<PicturesJobPayload>(THUMBNAIL_PICTURES_JOB, { uid, names }, { jobId: `thumb-v${THUMBNAIL_VERSION}-pictures-${uid}-${tag}-${Date.now()}`, delayMs: PICTURES_SETTLE_MS, attempts: 2 });
    } catch (e) {
      console.error(`thumbnails naming ${names.join(', ')}: could not be queued`, e);
    }
  }

  /**
   * Shows a new file's thumbnail: bytes whose thumbnail exists get it at once; otherwise one job per blob is queued
   * (a second upload of the same bytes while it waits or runs adds nothing: the job attaches the thumbnail to every
   * file with those bytes when it ends, so it also covers this one). Never fails: a thumbnail is a nicety.
   */
  async function showThumbnail(item: NewItem): Promise<void> {
    const kind = thumbnailKindOf(item.type);
    if (!kind || !item.blob_md5) return;
    try {
      const thumbkey = thumbkeyOf(item.blob_md5, kind);
      // storage first: the job stores before it attaches, so "not stored yet" means its attach is still to come
      if (await deps.storage.exists(thumbnailStorageKey(thumbkey))) {
        // a copy came with its original's variant: it goes when nobody shows it (the original still does, mostly)
        await variants.release([await repo.attachToItem(item.id, item.uid, thumbkey)]);
        // a drawing showing pictures: this file may get its own thumbnail with its owner's pictures
        if (kind === 'drawing' && (await withPictures.namesOf(item.blob_md5)).length) {
          await deps.queue.enqueue<RenderJobPayload>(THUMBNAIL_RENDER_JOB, { md5: item.blob_md5, type: item.type, itemId: item.id }, { jobId: `${thumbnailJobId(item.blob_md5)}-p-${item.id}`, attempts: 2 });
        }
        return;
      }
      const jobId = thumbnailJobId(item.blob_md5);
      const st = await deps.queue.status(jobId);
      // rendered once, but the stored image is gone (its blob was purged and the bytes came back): render again
      const again = st.state === 'completed' && (st.result as { thumbkey?: string } | undefined)?.thumbkey;
      if (st.state === 'unknown' || again) {
        await deps.queue.enqueue<RenderJobPayload>(THUMBNAIL_RENDER_JOB, { md5: item.blob_md5, type: item.type }, { jobId: again ? `${jobId}-${Date.now()}` : jobId, attempts: 2 });
      }
      // waiting/active: that job will attach to this item too; skipped or failed before: these bytes get none
    } catch (e) {
      console.error(`thumbnail of ${item.blob_md5}: could not be queued`, e);
    }
  }

  /**
   * Queues drawing this file's variant again (or the plain thumbnail, if its pictures are gone); at most once a
   * minute per file however often its image is asked for. Never fails the caller.
   */
  async function redrawVariant(md5: string, file: { id: string; type: string }): Promise<void> {
    try {
      const minute = Math.floor(Date.now() / 60_000);
      await deps.queue.enqueue<RenderJobPayload>(THUMBNAIL_RENDER_JOB, { md5, type: file.type, itemId: file.id }, { jobId: `${thumbnailJobId(md5)}-p-${file.id}-missing-${minute}`, attempts: 2 });
    } catch (e) {
      console.error(`thumbnail of ${file.id} with pictures: could not be queued again`, e);
    }
  }

  return {
    repo,
    variants,
    picturesChanged,
    showThumbnail,

    /**
     * Called once a new file item is visible (every upload path, instant upload included, and a new version). Never
     * fails the upload. A picture may be one that drawings already in this drive name: theirs are drawn again with it.
     */
    async afterUpload(item: NewItem): Promise<void> {
      await showThumbnail(item);
      await picturesChanged(item.uid, [item.name]);
    },

    /**
     * Called once copies of other files became this user's (save to my cloud): each copy came with the original's
     * thumbkey, which for a drawing showing pictures is its owner's variant. Such a drawing shows the plain thumbnail
     * and gets its own variant from the new owner's pictures, as an upload of it would; pictures among the copies are
     * reported once for all.
     */
    async afterCopy(uid: string, copies: (NewItem & { thumbkey: string | null })[]): Promise<void> {
      for (const c of copies) {
        if (thumbnailKindOf(c.type) !== 'drawing' || !c.blob_md5 || !c.thumbkey) continue;
        const showsPictures = !!parseThumbkey(c.thumbkey)?.pictures || (await withPictures.namesOf(c.blob_md5).catch(() => [])).length > 0;
        if (showsPictures) await showThumbnail(c);
      }
      await picturesChanged(uid, copies.map((c) => c.name));
    },

    /**
     * Files moved to another folder of one user's drive: a drawing showing pictures may now take others (of two pictures
     * of one name, the one in the drawing's own folder wins), so each such drawing shows what its new folder calls for.
     */
    async afterMove(items: NewItem[]): Promise<void> {
      for (const item of items) {
        if (thumbnailKindOf(item.type) !== 'drawing' || !item.blob_md5) continue;
        try {
          if (!(await withPictures.namesOf(item.blob_md5)).length) continue;
          // a job for this file alone, one per move (a completed job's id is never run again)
          await deps.queue.enqueue<RenderJobPayload>(THUMBNAIL_RENDER_JOB, { md5: item.blob_md5, type: item.type, itemId: item.id }, { jobId: `${thumbnailJobId(item.blob_md5)}-p-${item.id}-${Date.now()}`, attempts: 2 });
        } catch (e) {
          console.error(`thumbnail of moved ${item.id}: could not be queued`, e);
        }
      }
    },

    /** The job: render (unless stored already), store atomically, then show it on every file with these bytes. */
    async renderJob(p: RenderJobPayload): Promise<RenderJobResult> {
      const kind = thumbnailKindOf(p.type);
      if (!kind) return { skipped: `no thumbnail for type ${p.type}` };
      const started = Date.now();
      const thumbkey = thumbkeyOf(p.md5, kind);
      const key = thumbnailStorageKey(thumbkey);
      let rendered = false;
      let pictureNames: string[] | undefined;
      let notDrawn: Record<string, number> | undefined;
      if (!(await deps.storage.exists(key))) {
        const blob = await deps.db.selectFrom('blobs').select(['md5', 'size']).where('md5', '=', p.md5).executeTakeFirst();
        if (!blob) return { skipped: 'the file is gone' };
        const max = kind === 'drawing' ? cfg.thumbnailMaxDrawingSize : cfg.thumbnailMaxPictureSize;
        let image: Buffer;
        try {
          if (Number(blob.size) > max) throw new ThumbnailSkipped(`${blob.size} bytes is over the limit of ${max}`);
          const r = await render(kind, await readBlob(p.md5, max), p.type);
          image = r.image;
          pictureNames = r.pictureNames;
          notDrawn = r.notDrawn;
          if (kind === 'drawing') await withPictures.remember(p.md5, pictureNames);
        } catch (e) {
          if (e instanceof ThumbnailTimeout) console.warn(`thumbnail of ${p.md5} (${p.type}): ${e.message}`);
          if (!(e instanceof ThumbnailSkipped)) throw e;
          console.warn(`thumbnail of ${p.md5} (${p.type}) skipped: ${e.message}`);
          return { skipped: e.message };
        }
        // the drivers' put is atomic (temp file + rename, or one S3 PUT): nobody ever reads half an image
        await deps.storage.put(key, image, { size: image.length, contentType: contentTypeOf(kind) });
        rendered = true;
      }
      // every file with these bytes shows the plain thumbnail, then those whose owners have the pictures their own
      // (a job for one later file touches that file alone)
      const { attached, replaced } = p.itemId ? { attached: 0, replaced: [] } : await repo.attach(p.md5, thumbkey);
      const names = kind === 'drawing' ? (pictureNames ?? (await withPictures.namesOf(p.md5))) : [];
      const withOwnPictures = await withPictures.attachVariants(p.md5, names, p.itemId);
      // only now: a file whose owner still has the pictures got its variant back above, and it stays stored
      await variants.release(replaced);
      return { thumbkey, rendered, ms: Date.now() - started, attached, ...(withOwnPictures ? { withPictures: withOwnPictures } : {}), ...(notDrawn && Object.keys(notDrawn).length ? { notDrawn } : {}) };
    },

    /** The pictures job: this user's drawings naming one of these pictures show the thumbnail their pictures now call for. */
    async picturesJob(p: PicturesJobPayload) {
      return withPictures.refreshDrawingsNaming(p.uid, p.names);
    },

    /** Once per installation: the pictures older renders noted as JSON go into the table, so pictures arriving later find those drawings too. */
    async picturesIndexJob() {
      if (await deps.storage.exists(PICTURES_INDEXED_KEY)) return { moved: 0 };
      const moved = await withPictures.indexLegacyNames();
      const done = Buffer.from(new Date().toISOString());
      await deps.storage.put(PICTURES_INDEXED_KEY, done, { size: done.length, contentType: 'text/plain' });
      return { moved };
    },

    /**
     * The image behind a thumbkey, for a user who has a file showing it; anyone else gets "not found" (404). A
     * variant whose image is gone (deleted by a release racing its attach, see thumbnail-variants.ts) is drawn again
     * by a job, and meanwhile the plain thumbnail answers, marked `stand-in` so it is not cached as the variant.
     */
    async open(uid: string, thumbkey: string): Promise<{ body: Readable; contentType: string; size: number | null; standIn?: true }> {
      const p = parseThumbkey(thumbkey);
      const notFound = () => new AppError('item.notFound', [], 404);
      if (!p || p.version > THUMBNAIL_VERSION) throw notFound();
      const file = await repo.fileShowing(uid, p.md5, thumbkey);
      if (!file) throw notFound();
      const key = thumbnailStorageKey(thumbkey);
      const size = await deps.storage.size(key);
      if (size !== null) return { body: await deps.storage.get(key), contentType: contentTypeOf(p.kind), size };
      if (!p.pictures) throw notFound();
      await redrawVariant(p.md5, file);
      const plainKey = thumbnailStorageKey(thumbkeyOf(p.md5, p.kind, p.version));
      const plainSize = await deps.storage.size(plainKey);
      if (plainSize === null) throw notFound();
      return { body: await deps.storage.get(plainKey), contentType: contentTypeOf(p.kind), size: plainSize, standIn: true };
    },
  };
}

export type ThumbnailsService = ReturnType<typeof createThumbnailsService>;
