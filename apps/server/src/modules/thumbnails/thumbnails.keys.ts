import { typeGroupOf } from '@cadcloud/contracts';

/**
 * Thumbnails belong to a blob (the content hash), not to an item: the same bytes uploaded twice render once.
 * Raising THUMBNAIL_VERSION (a better renderer) gives every blob new keys, so browsers holding the old
 * image forever (immutable caching) never see a stale one and the job renders them afresh.
 */
export const THUMBNAIL_VERSION = 1;
export const THUMBNAIL_SIZE = 400;

/** Drawings become PNG (line art), pictures WebP (photos are several times smaller than as PNG). */
export type ThumbnailKind = 'drawing' | 'picture';
const FORMAT = { drawing: { ext: 'png', contentType: 'image/png' }, picture: { ext: 'webp', contentType: 'image/webp' } } as const;

/** The drawing types we read and thumbnail (not dwf/ocf). */
export const DRAWING_TYPES = ['dwg', 'dxf', 'dws', 'dwt'] as const;

/** Which kind of thumbnail an item type gets, or null (no thumbnail: archives, documents, dwf/ocf which we do not read). */
export function thumbnailKindOf(type: string): ThumbnailKind | null {
  const t = type.toLowerCase();
  if ((DRAWING_TYPES as readonly string[]).includes(t)) return 'drawing';
  // a Revit model shows the preview picture Revit embeds in it (its geometry has no open reader)
  if (typeGroupOf(t) === 'image' || t === 'rvt') return 'picture';
  return null;
}

/**
 * The value of `items.thumbkey`: `v1-<md5>.png`; safe in a URL path, and naming the blob and the version. A drawing
 * whose IMAGEs show pictures from its owner's drive gets `v1-<md5>-p<pictures>.png`, `pictures` naming the
 * picture contents it was drawn with (so only an item that resolved those pictures ever shows it).
 */
export function thumbkeyOf(md5: string, kind: ThumbnailKind, version = THUMBNAIL_VERSION, pictures?: string): string {
  return `v${version}-${md5}${pictures ? `-p${pictures}` : ''}.${FORMAT[kind].ext}`;
}

const THUMBKEY_RE = /^v(\d{1,4})-([a-f0-9]{32})(?:-p([a-f0-9]{16}))?\.(png|webp)$/;

export function parseThumbkey(thumbkey: string): { version: number; md5: string; kind: ThumbnailKind; pictures?: string } | null {
  const m = THUMBKEY_RE.exec(thumbkey);
  if (!m) return null;
  return { version: Number(m[1]), md5: m[2], kind: m[4] === 'png' ? 'drawing' : 'picture', ...(m[3] ? { pictures: m[3] } : {}) };
}

/** Storage key beside the blobs: `thumbs/v1/ab/<md5>.png` (same fan-out as `blobs/ab/<md5>`), `<md5>-p<pictures>.png` for a variant with pictures. */
export function thumbnailStorageKey(thumbkey: string): string {
  const p = parseThumbkey(thumbkey);
  if (!p) throw new Error(`invalid thumbkey ${JSON.stringify(thumbkey)}`);
  return `thumbs/v${p.version}/${p.md5.slice(0, 2)}/${p.md5}${p.pictures ? `-p${p.pictures}` : ''}.${FORMAT[p.kind].ext}`;
}

/**
 * Where a drawing's rendering noted the pictures its IMAGEs show (JSON list of base names; absent when none), before
 * the drawing_pictures table: still read for drawings rendered then, no longer written.
 */
export function thumbnailPicturesKey(md5: string, version = THUMBNAIL_VERSION): string {
  return `thumbs/v${version}/${md5.slice(0, 2)}/${md5}.pictures.json`;
}

/** Every stored thumbnail of a blob at the current version (both kinds: the type that asked is not known then). */
export function thumbnailStorageKeysOf(md5: string): string[] {
  return [...(['drawing', 'picture'] as const).map((k) => thumbnailStorageKey(thumbkeyOf(md5, k))), thumbnailPicturesKey(md5)];
}

export function contentTypeOf(kind: ThumbnailKind): string {
  return FORMAT[kind].contentType;
}

/** One job per blob and version: enqueueing it again while it waits or runs is a no-op. */
export function thumbnailJobId(md5: string, version = THUMBNAIL_VERSION): string {
  return `thumb-v${version}-${md5}`;
}
