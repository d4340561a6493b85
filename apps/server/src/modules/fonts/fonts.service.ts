import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { Readable } from 'node:stream';
import { FONT_BATCH_MAX, FONT_TYPES, TRASH_RETENTION_DAYS, extensionOf, formatSize, isValidItemName } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { nextFreeName } from '../files/item-names.ts';
import { receiveToTemp } from '../uploads/upload-temp.ts';
import { createFontsRepository, type FontRow } from './fonts.repository.ts';
import { defaultCodepage, sniffFont } from './font-format.ts';
import { addDownloadGrant, downloadLink } from '../downloads/download-links.ts';

export interface FontActor {
  id: string;
  freeze: number;
}

const RETENTION_MS = TRASH_RETENTION_DAYS * 24 * 3600 * 1000;

/** A font as the spec's clients read it (section 3: id/fileId, name/fileName, size/fileSize, …). */
export function presentFont(r: FontRow) {
  return {
    id: r.id,
    fileId: r.id,
    name: r.name,
    fileName: r.name,
    size: Number(r.size),
    fileSize: Number(r.size),
    createTime: Number(r.created_at),
    modifyTime: Number(r.modified_at),
    ispublic: r.is_public,
    issubfont: r.is_subfont,
    fileType: r.type,
    isbold: r.is_bold,
    isitalic: r.is_italic,
    codepage: r.codepage,
    // fonts are listed to their owner only (repo.list/byId filter on uid): their own bytes' MD5. Published fonts reach
    // other users only as bytes (downloadFont), whose ETag is the MD5 of the very bytes sent
    fileMD5: r.blob_md5,
    ...(r.deleted_at !== null ? { deleteTime: Number(r.deleted_at) } : {}),
  };
}

/** The last part of a path a drawing may carry ("C:\Fonts\txt.shx" → "txt.shx"). */
function baseName(name: string): string {
  const parts = name.trim().split(/[\\/]/);
  return parts[parts.length - 1] ?? '';
}

/** Lower-cased names a drawing's font name may mean: "txt" → txt.shx, txt.ttf, txt.ttc; "txt.shx" → itself. */
function candidateKeys(fileName: string): string[] {
  const key = baseName(fileName).toLowerCase();
  if (!key) return [];
  if ((FONT_TYPES as readonly string[]).includes(extensionOf(key))) return [key];
  return [...FONT_TYPES.map((t) => `${key}.${t}`)];
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

/**
 * Resolves a drawing's font by file name for `uid`: case-insensitive, with or without extension ('txt' finds
 * 'txt.shx', then '.ttf', then '.ttc'); the user's own live fonts first, then fonts published by anyone
 * (earliest publication wins). Binned fonts are never used. Null when nothing matches.
 */
export async function findFontBytes(deps: AppDeps, uid: string, fileName: string): Promise<{ bytes: Uint8Array; fontId: string; from: 'user' | 'public'; hash: string } | null> {
  const keys = candidateKeys(fileName);
  if (!keys.length) return null;
  const repo = createFontsRepository(deps.db);
  const rank = (r: FontRow) => keys.indexOf(r.name_key);
  const pick = (rows: FontRow[]) => rows.slice().sort((a, b) => rank(a) - rank(b))[0];
  const own = pick(await repo.byNameKeys(uid, keys));
  const pub = own ? undefined : pick(await repo.publicByNameKeys(keys));
  const hit = own ? { row: own, from: 'user' as const } : pub ? { row: pub, from: 'public' as const } : null;
  if (!hit) return null;
  const bytes = await readAll(await deps.storage.get(blobKey(hit.row.blob_md5)));
  return { bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), fontId: hit.row.id, from: hit.from, hash: hit.row.blob_md5 };
}

/**
 * Changes whenever the set of fonts `uid`'s drawings resolve to changes (own live fonts, published ones, their
 * bytes and code pages): a cache of drawings built with fonts keys on it. '' when there are none.
 */
export async function fontSetFingerprint(deps: AppDeps, uid: string): Promise<string> {
  const rows = await createFontsRepository(deps.db).visibleTo(uid);
  if (!rows.length) return '';
  const h = createHash('sha1');
  for (const r of rows) h.update(`${r.uid === uid ? 'u' : 'p'}:${r.name_key}:${r.blob_md5}:${r.codepage}\n`);
  return h.digest('hex');
}

/** The font library (spec sections 3, 5, 7): upload, list, rename, edit, publish, download, delete, restore. */
export function createFontsService(deps: AppDeps) {
  const repo = createFontsRepository(deps.db);
  const quota = createQuotaService(deps);
  const blobs = createBlobsService(deps);
  const limit = deps.config.webUploadFileSize;

  function assertNotFrozen(actor: FontActor) {
    if (actor.freeze === 1) throw appError('account.frozen');
  }

  async function requireOwned(uid: string, id: string) {
    const row = await repo.findOwned(uid, id);
    if (!row) throw appError('item.notFound');
    return row;
  }

  /** A user-given name: required, no special characters, always ending in the font's own extension. */
  function fontName(raw: string | undefined, type: string): string {
    const n = (raw ?? '').trim();
    if (!n) throw appError('font.nameRequired');
    const withExt = extensionOf(n) === type ? n : `${n}.${type}`;
    if (!isValidItemName(withExt)) throw appError('name.invalid');
    return withExt;
  }

  /** Rename/edit: another live font of this user with that name (any case) is refused, never renamed silently. */
  async function assertFreeName(uid: string, name: string, exceptId: string) {
    const clash = (await repo.byNameKeys(uid, [name.toLowerCase()])).find((r) => r.id !== exceptId);
    if (clash) throw appError('name.duplicateFile');
  }

  /** Upload/restore: the first free "name (n).ext" (case-insensitive, since drawings look fonts up that way). */
  async function freeName(uid: string, name: string): Promise<string> {
    const taken = await repo.liveNameKeys(uid);
    if (!taken.has(name.toLowerCase())) return name;
    const lowerTaken = { has: (s: string) => taken.has(s.toLowerCase()) } as Set<string>;
    return nextFreeName(name, lowerTaken, false);
  }

  async function rename(actor: FontActor, row: FontRow, raw: string | undefined, patch: Partial<FontRow>) {
    const name = fontName(raw, row.type);
    if (name !== row.name) {
      await assertFreeName(actor.id, name, row.id);
      patch.name = name;
      patch.name_key = name.toLowerCase();
    }
  }

  async function save(uid: string, row: FontRow, patch: Partial<FontRow>) {
    patch.modified_at = Date.now();
    try {
      await repo.update(uid, row.id, patch);
    } catch (e) {
      // two renames to the same name at once: the unique index decides, the loser hears "duplicate"
      if (isUniqueViolation(e)) throw appError('name.duplicateFile');
      throw e;
    }
    return presentFont({ ...row, ...patch });
  }

  /** Binned fonts past the retention (10 days, like files) are deleted for good; runs lazily on list. */
  async function purgeExpired(uid: string) {
    const old = await repo.binned(uid, Date.now() - RETENTION_MS);
    if (!old.length) return;
    await repo.deleteRows(uid, old.map((r) => r.id));
    await blobs.release(old.map((r) => r.blob_md5));
  }

  return {
    repo,

    async list(uid: string, o: { startIndex: number; maxCount: number; delete?: boolean; q?: string }) {
      await purgeExpired(uid);
      const { rows, total } = await repo.list(uid, { deleted: !!o.delete, offset: o.startIndex, limit: o.maxCount, q: o.q });
      const list = rows.map(presentFont);
      return { fontsList: list, list, total };
    },

    /**
     * Multipart upload: the extension (ttf, ttc, shx, any case) and the first bytes must both say "font".
     * Same name and same bytes is refused as a repeat; same name, other bytes gets "name (1).ext".
     * Bytes go to the shared content-addressed blobs and count in the user's quota.
     */
    async upload(actor: FontActor, filename: string, stream: Readable, o: { codepage?: number; bold?: boolean; italic?: boolean } = {}) {
      assertNotFrozen(actor);
      const ext = extensionOf(baseName(filename));
      if (!(FONT_TYPES as readonly string[]).includes(ext)) {
        stream.resume();
        throw appError('font.unsupported');
      }
      const name = baseName(filename).trim();
      if (!isValidItemName(name)) {
        stream.resume();
        throw appError('name.invalid');
      }
      const tmp = await receiveToTemp(deps.config.dataDir, stream, limit);
      if (tmp.tooLarge) throw appError('upload.tooLarge', [formatSize(limit)]);
      try {
        if (tmp.size <= 0) throw appError('upload.empty');
        const fh = await fsp.open(tmp.path, 'r');
        const head = Buffer.alloc(32);
        try {
          await fh.read(head, 0, 32, 0);
        } finally {
          await fh.close();
        }
        const kind = sniffFont(ext, head.subarray(0, Math.min(32, tmp.size)));
        if (!kind) throw appError('font.unsupported');
        const uid = actor.id;
        const same = (await repo.byNameKeys(uid, [name.toLowerCase()]))[0];
        if (same && same.blob_md5 === tmp.md5) throw appError('upload.repeated');
        const finalName = await freeName(uid, name);
        await quota.reserve(uid, tmp.size);
        try {
          if (!(await blobs.find(tmp.md5))) {
            await deps.storage.importFile(blobKey(tmp.md5), tmp.path);
            await blobs.register(tmp.md5, tmp.size);
          }
          await blobs.addRef(tmp.md5);
          const now = Date.now();
          const row: FontRow = {
            id: newId(), uid, name: finalName, name_key: finalName.toLowerCase(), type: kind.type, size: tmp.size, blob_md5: tmp.md5,
            codepage: o.codepage ?? defaultCodepage(kind), is_bold: o.bold ? 1 : 0, is_italic: o.italic ? 1 : 0, is_subfont: kind.isSubfont ? 1 : 0,
            is_public: 0, published_at: null, created_at: now, modified_at: now, deleted_at: null,
          };
          try {
            await repo.insert(row);
          } catch (e) {
            await blobs.release([tmp.md5]);
            if (isUniqueViolation(e)) throw appError('name.duplicateFile');
            throw e;
          }
          return presentFont(row);
        } catch (e) {
          await quota.release(uid, tmp.size);
          throw e;
        }
      } finally {
        await fsp.rm(tmp.path, { force: true });
      }
    },

    async rename(actor: FontActor, o: { id: string; name: string }) {
      assertNotFrozen(actor);
      const row = await requireOwned(actor.id, o.id);
      const patch: Partial<FontRow> = {};
      await rename(actor, row, o.name, patch);
      return save(actor.id, row, patch);
    },

    /** font/edit: name is required (section 5); code page from section 9; bold and italic flags. */
    async edit(actor: FontActor, o: { id: string; name: string; codepage?: number; bold?: boolean; italic?: boolean }) {
      assertNotFrozen(actor);
      const row = await requireOwned(actor.id, o.id);
      const patch: Partial<FontRow> = {};
      await rename(actor, row, o.name, patch);
      if (o.codepage !== undefined) patch.codepage = o.codepage;
      if (o.bold !== undefined) patch.is_bold = o.bold ? 1 : 0;
      if (o.italic !== undefined) patch.is_italic = o.italic ? 1 : 0;
      return save(actor.id, row, patch);
    },

    /** Publish (every user's drawings may then use it) or unpublish: `ispublic` sets it, omitted toggles. */
    async setPublic(actor: FontActor, o: { id: string; ispublic?: boolean }) {
      const row = await requireOwned(actor.id, o.id);
      const next = o.ispublic ?? row.is_public !== 1;
      return save(actor.id, row, { is_public: next ? 1 : 0, published_at: next ? (row.is_public === 1 ? row.published_at : Date.now()) : null });
    },

    /** A download link of the user's own font (like file downloads; allowed while frozen; download-links.ts). */
    async download(uid: string, id: string) {
      const row = await requireOwned(uid, id);
      const { url } = downloadLink(deps, { k: 'font', u: uid, i: row.id, b: row.blob_md5 });
      return { signedUrl: url, downloadUrl: url, name: row.name, size: Number(row.size) };
    },

    /** The links' check (registered once per app, by the routes): still the user's live font, same bytes. */
    registerGrants() {
      addDownloadGrant(deps, 'font', async (g) => {
        const row = await requireOwned(String(g.u), String(g.i));
        if (row.blob_md5 !== g.b) throw appError('item.notFound');
        return { key: blobKey(row.blob_md5), name: row.name };
      });
    },

    /** The fonts of a batch download, in the order asked; every id must be the user's live font. */
    async batchEntries(uid: string, ids: string[]) {
      const unique = [...new Set(ids)];
      if (unique.length > FONT_BATCH_MAX) throw appError('font.tooMany', [FONT_BATCH_MAX]);
      const rows = await repo.findManyOwned(uid, unique);
      if (rows.length !== unique.length) throw appError('item.notFound');
      const byId = new Map(rows.map((r) => [r.id, r]));
      return unique.map((id) => byId.get(id)!).map((r) => ({ name: r.name, key: blobKey(r.blob_md5), size: Number(r.size), modified: Number(r.modified_at) }));
    },

    /** Bytes of a font the user may use in drawings: their own, or a published one (downloadFont). */
    async readable(uid: string, o: { id?: string; name?: string }) {
      if (o.id) {
        const row = (await repo.findOwned(uid, o.id)) ?? (await repo.findPublic(o.id));
        if (!row) throw appError('item.notFound');
        return { name: row.name, type: row.type, body: (await deps.storage.get(blobKey(row.blob_md5))) as Readable | Buffer, hash: row.blob_md5 };
      }
      const hit = o.name ? await findFontBytes(deps, uid, o.name) : null;
      if (!hit) throw appError('item.notFound');
      const row = (await repo.findOwned(uid, hit.fontId)) ?? (await repo.findPublic(hit.fontId));
      return { name: row?.name ?? baseName(o.name!), type: row?.type ?? 'ttf', body: Buffer.from(hit.bytes.buffer, hit.bytes.byteOffset, hit.bytes.byteLength) as Readable | Buffer, hash: hit.hash };
    },

    /**
     * union/delete with fontIds, mirroring files: deleteLevel 0 puts them in the font recycle bin (listed by
     * font/list{delete:1}, quota given back, 10 days), 1 deletes for good (live or binned), 2 empties the bin.
     * `check` only verifies ownership, so a mixed delete can refuse before anything changes.
     */
    async remove(actor: FontActor, o: { deleteLevel: number; fontIds: string[] }, check = false) {
      const uid = actor.id;
      if (o.deleteLevel === 2) {
        if (check) return { deleted: 0 };
        const all = await repo.binned(uid);
        await repo.deleteRows(uid, all.map((r) => r.id));
        await blobs.release(all.map((r) => r.blob_md5));
        return { deleted: all.length };
      }
      const ids = [...new Set(o.fontIds)];
      if (!ids.length) return { deleted: 0 };
      const live = await repo.findManyOwned(uid, ids);
      const binned = o.deleteLevel === 1 ? await repo.findManyOwned(uid, ids, { deleted: true }) : [];
      if (live.length + binned.length !== ids.length) throw appError('item.notFound');
      if (check) return { deleted: 0 };
      const released = live.reduce((a, r) => a + Number(r.size), 0);
      if (o.deleteLevel === 0) {
        const now = Date.now();
        await deps.db.transaction().execute(async (trx) => {
          for (const r of live) await repo.update(uid, r.id, { deleted_at: now, modified_at: now }, trx);
        });
      } else {
        const rows = [...live, ...binned];
        await repo.deleteRows(uid, rows.map((r) => r.id));
        await blobs.release(rows.map((r) => r.blob_md5));
      }
      await quota.release(uid, released);
      return { deleted: ids.length };
    },

    /** Back from the font recycle bin; refused when it would exceed storage; a taken name gets "name (1)". */
    async restore(actor: FontActor, ids: string[]) {
      const uid = actor.id;
      const unique = [...new Set(ids)];
      const rows = await repo.findManyOwned(uid, unique, { deleted: true });
      if (rows.length !== unique.length) throw appError('item.notFound');
      const bytes = rows.reduce((a, r) => a + Number(r.size), 0);
      await quota.reserve(uid, bytes, 'trash.restoreNoSpace');
      try {
        for (const r of rows) {
          const name = await freeName(uid, r.name);
          await repo.update(uid, r.id, { deleted_at: null, name, name_key: name.toLowerCase(), modified_at: Date.now() });
        }
      } catch (e) {
        await quota.release(uid, bytes);
        throw e;
      }
      return { restored: rows.length };
    },
  };
}

/**
 * union/delete: fonts are checked first so a stranger's font id refuses the whole call before files move;
 * then the files part (when there is one), then the fonts.
 */
export async function deleteWithFonts<T extends { deleted: number }>(deps: AppDeps, actor: FontActor, d: { deleteLevel: number; fileIds: string[]; folderIds: string[]; fontIds: string[] }, deleteFiles: () => Promise<T>) {
  const fonts = createFontsService(deps);
  const onlyFonts = d.deleteLevel !== 2 && d.fontIds.length > 0 && !d.fileIds.length && !d.folderIds.length;
  if (!d.fontIds.length && d.deleteLevel !== 2) return deleteFiles();
  await fonts.remove(actor, d, true);
  const files = onlyFonts ? { deleted: 0 } : await deleteFiles();
  const f = await fonts.remove(actor, d);
  return { ...files, deleted: files.deleted + f.deleted };
}

export type FontsService = ReturnType<typeof createFontsService>;
