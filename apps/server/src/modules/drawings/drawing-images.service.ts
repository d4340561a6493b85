import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pictureToPng } from '@cadcloud/cad';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import type { DrawingRequest, DrawingSource } from './drawing-access.ts';
import { createPictureFinder } from './picture-finder.ts';

/** What the picture service needs of the drawings service: the same access rules and scenes as the viewer. */
export interface DrawingsForPictures {
  access(req: DrawingRequest): Promise<DrawingSource | undefined>;
  scene(req: DrawingRequest, layout: string): Promise<{ key: string; body: Readable | Uint8Array }>;
}

/** Formats every browser shows as they are; the others (BMP, TIFF) are converted to PNG. */
const AS_IS: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };
/** Converted pictures are made no larger than this (the viewer's textures are at most 4096 wide). */
const CONVERTED_MAX_SIDE = 4096;

/** The meta JSON at the head of scene bytes (binary.ts: magic, version, meta length, meta), read without the arrays. */
async function sceneMetaOf(body: Readable | Uint8Array): Promise<{ images?: { file?: string }[] }> {
  let head: Buffer;
  if (body instanceof Uint8Array) head = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  else {
    const parts: Buffer[] = [];
    let n = 0, need = 12;
    for await (const c of body) {
      parts.push(c as Buffer);
      n += (c as Buffer).length;
      if (n >= 12 && need === 12) need = 12 + Buffer.concat(parts).readUInt32LE(8);
      if (n >= need) break;
    }
    body.destroy();
    head = Buffer.concat(parts);
  }
  if (head.length < 12 || head.readUInt32LE(0) !== 0x53444143) throw appError('drawing.parseFailed');
  return JSON.parse(head.subarray(12, 12 + head.readUInt32LE(8)).toString('utf8'));
}

/** A small memory of recent values, oldest dropped first, bounded by a total weight. */
function boundedCache<V>(maxWeight: number, weigh: (v: V) => number) {
  const m = new Map<string, V>();
  let total = 0;
  return {
    get(k: string) {
      const v = m.get(k);
      if (v !== undefined) {
        m.delete(k);
        m.set(k, v);
      }
      return v;
    },
    set(k: string, v: V) {
      const w = weigh(v);
      if (w > maxWeight) return;
      if (m.has(k)) total -= weigh(m.get(k)!);
      m.delete(k);
      m.set(k, v);
      total += w;
      for (const [old, ov] of m) {
        if (total <= maxWeight) break;
        m.delete(old);
        total -= weigh(ov);
      }
    },
  };
}

/**
 * The picture an IMAGE of a drawing shows, for whoever may see the drawing (own file, share token, public
 * library, version: the viewer's rules, through the drawings service), found in the drawing owner's drive and
 * never anyone else's. Only names the layout's scene lists are looked up, so a share visitor cannot read the
 * owner's other pictures by guessing names through a shared drawing.
 */
export function createDrawingImagesService(deps: AppDeps, drawings: DrawingsForPictures) {
  const finder = createPictureFinder(deps);
  // scene key → the picture files it names (a scene never changes under its key)
  const named = boundedCache<Set<string>>(500, () => 1);
  // blob md5 → PNG of a picture browsers do not show (converting a TIFF takes a while; 64 MB of them kept)
  const converted = boundedCache<Buffer>(64 * 1024 * 1024, (b) => b.length);

  async function namedBy(req: DrawingRequest, layout: string): Promise<Set<string>> {
    const s = await drawings.scene(req, layout);
    const known = named.get(s.key);
    if (known) {
      if (!(s.body instanceof Uint8Array)) s.body.destroy();
      return known;
    }
    const meta = await sceneMetaOf(s.body);
    const files = new Set((meta.images ?? []).flatMap((i) => (i.file ? [i.file] : [])));
    named.set(s.key, files);
    return files;
  }

  async function readBlob(md5: string, max: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let n = 0;
    const stream = await deps.storage.get(blobKey(md5));
    for await (const c of stream) {
      n += (c as Buffer).length;
      if (n > max) {
        stream.destroy();
        throw appError('drawing.overSize');
      }
      parts.push(c as Buffer);
    }
    return Buffer.concat(parts);
  }

  return {
    async picture(req: DrawingRequest, layout: string, file: string): Promise<{ body: Readable | Buffer; contentType: string; size: number | null; etag: string }> {
      const source = await drawings.access(req);
      if (!source) throw appError('drawing.noPermission');
      // the scene's own checks (frozen, size, type) apply, and it says which pictures the drawing shows
      if (!(await namedBy(req, layout)).has(file)) throw appError('item.notFound');
      const owner = source.fontsOwner;
      const row = await finder.find(owner, await finder.folderOf(owner, req.fileId), file);
      if (!row) throw appError('item.notFound');
      const type = AS_IS[row.type];
      if (type) return { body: await deps.storage.get(blobKey(row.blob_md5)), contentType: type, size: await deps.storage.size(blobKey(row.blob_md5)), etag: `"${row.blob_md5}"` /* the MD5 of the very bytes sent */ };
      let png = converted.get(row.blob_md5);
      if (!png) {
        try {
          png = (await pictureToPng(await readBlob(row.blob_md5, deps.config.thumbnailMaxPictureSize), { maxSide: CONVERTED_MAX_SIDE })).png;
        } catch (e) {
          if ((e as { rtnCode?: string }).rtnCode) throw e;
          throw appError('drawing.loadFailed');
        }
        converted.set(row.blob_md5, png);
      }
      return { body: png, contentType: 'image/png', size: png.length, etag: `"${createHash('md5').update(png).digest('hex')}"` };
    },
  };
}
