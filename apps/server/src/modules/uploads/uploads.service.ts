import { promises as fsp, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ROOT_FOLDER_ID, extensionOf, formatSize, type PossessionChallenge, type PossessionProof } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { newId } from '../../infra/db/ids.ts';
import { createFilesService, type Actor } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { presentItem, type PresentedItem } from '../files/items.presenter.ts';
import { checkName } from '../files/item-names.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import { prewarmAfterUpload } from '../drawings/drawings.jobs.ts';
import { createVersionsService } from '../versions/versions.service.ts';
import { createPossessionCheck } from '../blobs/possession.ts';
import { receiveToTemp, md5OfFile, uploadsDir } from './upload-temp.ts';
import { createUploadSessions, sessionPartPath } from './upload-sessions.ts';

export const CHUNK_SIZE = 8 * 1024 * 1024;
/** Where a direct (presigned PUT) upload lands before it is checked: per session, never a blob's key. */
export const directStagingKey = (uploadId: string) => `uploads/direct/${uploadId.replace(/[^A-Za-z0-9_-]/g, '')}`;
const MD5_RE = /^[a-f0-9]{32}$/;
const conflictOf = (v: string | null | undefined): UploadConflict => (v === 'version' ? 'version' : 'rename');

/** What an upload does when a live file of its name is in the target folder: 'rename' keeps both ("name (1).ext"), 'version' makes it a new version of that file. */
export type UploadConflict = 'rename' | 'version';

export interface Placement {
  parentId: string;
  /** folder upload: "a/b/c.dwg" creates or reuses folders a and b under parentId */
  relativePath?: string;
  name: string;
  conflict?: UploadConflict;
}

/** The uploader; `name` (the signed-in user's) is written on the versions an upload makes. */
export type UploadActor = Actor & { name?: string };

/**
 * Uploads (multipart, instant, chunked/resumable, direct-to-S3). Every path ends in `finalize`: quota is
 * reserved before the item becomes visible and given back on any failure, the bytes are stored once per
 * MD5, and a temp file is never visible as an item.
 */
export function createUploadsService(deps: AppDeps) {
  const files = createFilesService(deps);
  const quota = createQuotaService(deps);
  const blobs = createBlobsService(deps);
  const thumbnails = createThumbnailsService(deps);
  const versions = createVersionsService(deps);
  const possession = createPossessionCheck(deps);
  const sessions = createUploadSessions(deps);
  const limit = deps.config.webUploadFileSize;

  function checkSize(size: number) {
    if (size <= 0) throw appError('upload.empty');
    if (size > limit) throw appError('upload.tooLarge', [formatSize(limit)]);
  }

  /** The file name and the folder names of a folder upload's relative path, each checked (a bad one refused). */
  function placementNames(p: Placement): { name: string; folders: string[] } {
    const parts = (p.relativePath ?? '').split('/').filter(Boolean);
    return { name: checkName(parts.length ? parts[parts.length - 1] : p.name), folders: parts.slice(0, -1).map(checkName) };
  }

  /** Resolves the target folder, creating the folders of a folder upload's relative path. */
  async function resolvePlacement(actor: UploadActor, p: Placement): Promise<{ parentId: string; name: string }> {
    let parentId = p.parentId || ROOT_FOLDER_ID;
    await files.requireFolder(actor.id, parentId);
    // every folder name checked before the first is made: a refused path leaves no folder behind
    const { name, folders } = placementNames(p);
    for (const n of folders) {
      const existing = await files.repo.findByName(actor.id, parentId, n, 0);
      parentId = existing ? existing.id : (await files.createFolder(actor, { parentId, name: n, autorename: false }).catch(async (e) => {
        // a parallel upload of the same folder created it first
        const again = await files.repo.findByName(actor.id, parentId, n, 0);
        if (again) return { id: again.id };
        throw e;
      })).id;
    }
    return { parentId, name };
  }

  /** The same file twice in one folder (same name, same bytes) is refused. */
  function refuseRepeat(clash: ItemRow, md5: string) {
    if (clash.kind === 1 && clash.blob_md5 === md5) throw appError('upload.repeated');
  }

  /** Same name and same bytes in the folder: refused; same name, other bytes: renamed "name (1).ext". */
  async function nameFor(uid: string, parentId: string, name: string, md5: string): Promise<string> {
    const clash = await files.repo.findByName(uid, parentId, name);
    if (!clash) return name;
    refuseRepeat(clash, md5);
    return files.freeName(uid, parentId, name, 1, true, 'name.duplicateFile');
  }

  /**
   * With conflict 'version': the live file of this exact name in the folder (the name `nameFor` would clash with), which
   * the upload becomes a new version of; the same bytes as its current content are refused like any repeated upload.
   */
  async function versionTarget(uid: string, parentId: string, name: string, md5: string, conflict: UploadConflict | undefined): Promise<ItemRow | null> {
    if (conflict !== 'version') return null;
    const clash = await files.repo.findByName(uid, parentId, name, 1);
    if (!clash || !clash.blob_md5) return null;
    if (clash.blob_md5 === md5) throw appError('upload.repeated');
    return clash;
  }

  /** The upload as V(n+1) 'overwrite upload' of `target` (the versions module counts storage and keeps the bytes). */
  async function overwrite(actor: UploadActor, target: ItemRow, sourceName: string, md5: string, size: number, store: (() => Promise<void>) | null) {
    const updater = actor.name ?? (await deps.db.selectFrom('users').select('name').where('id', '=', actor.id).executeTakeFirst())?.name ?? '';
    await versions.overwriteUpload({ id: actor.id, name: updater, freeze: actor.freeze }, target.id, { md5, size, sourceName }, store);
    const row = await files.repo.findOne(actor.id, target.id);
    if (!row) throw appError('item.notFound');
    return presentItem(row, actor.id);
  }

  /**
   * Makes the item visible; `store` puts the bytes under the blob key when they are not stored yet. `hold`: the quota a
   * chunked upload's session holds, turned into the file's storage (`convert`) instead of a fresh reservation, or
   * given back (`free`) when the upload becomes a version (the versions module counts that storage).
   */
  async function finalize(actor: UploadActor, placement: { parentId: string; name: string; conflict?: UploadConflict }, md5: string, size: number, store: (() => Promise<void>) | null, hold?: { convert(): Promise<void>; free(): Promise<void> }) {
    const uid = actor.id;
    const target = await versionTarget(uid, placement.parentId, placement.name, md5, placement.conflict);
    if (target) {
      await hold?.free();
      return overwrite(actor, target, placement.name, md5, size, store);
    }
    // refused early when it is a repeat; the name itself is taken when the item is inserted (another may get there first)
    await nameFor(uid, placement.parentId, placement.name, md5);
    if (hold) await hold.convert();
    else await quota.reserve(uid, size);
    try {
      const existing = await blobs.find(md5);
      if (!existing) {
        if (!store) throw appError('upload.md5Mismatch');
        await store();
        await blobs.register(md5, size);
      }
      await blobs.addRef(md5);
      const now = Date.now();
      let row: ItemRow = {
        id: newId(), uid, parent_id: placement.parentId, kind: 1, name: placement.name, type: extensionOf(placement.name) || 'file', size, blob_md5: md5, version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null,
        transform_status: 3, browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null,
      };
      try {
        row = await files.insertWithFreeName(row, { refuse: (clash) => refuseRepeat(clash, md5) });
      } catch (e) {
        await blobs.release([md5]);
        throw e;
      }
      await thumbnails.afterUpload(row);
      await prewarmAfterUpload(deps, row);
      return presentItem(row, uid);
    } catch (e) {
      await quota.release(uid, size);
      throw e;
    }
  }

  return {
    CHUNK_SIZE,

    /** Multipart upload (call style 5): hashed while streaming to a temp file, then moved into place. */
    async uploadStream(actor: UploadActor, placement: Placement, stream: Readable, declared: { size?: number; md5?: string }) {
      files.assertNotFrozen(actor);
      if (declared.size !== undefined && declared.size > limit) throw appError('upload.tooLarge', [formatSize(limit)]);
      const target = { ...(await resolvePlacement(actor, placement)), conflict: placement.conflict };
      const tmp = await receiveToTemp(deps.config.dataDir, stream, limit);
      if (tmp.tooLarge) throw appError('upload.tooLarge', [formatSize(limit)]);
      try {
        checkSize(tmp.size);
        if (declared.md5 && declared.md5.toLowerCase() !== tmp.md5) throw appError('upload.md5Mismatch');
        return await finalize(actor, target, tmp.md5, tmp.size, () => deps.storage.importFile(blobs.keyOf(tmp.md5), tmp.path));
      } finally {
        await fsp.rm(tmp.path, { force: true });
      }
    },

    /**
     * Instant upload: the item appears at once and no bytes are sent when the bytes are stored and the caller owns
     * them already or proves to hold them (blobs/possession.ts). Otherwise needUpload, with a challenge when no
     * proof came: the same answer whether or not anyone stores these bytes.
     */
    async detectUpload(actor: UploadActor, o: Placement & { md5: string; size: number; possession?: PossessionProof }): Promise<{ exists: boolean; needUpload: boolean; item: PresentedItem | null; possession?: PossessionChallenge }> {
      files.assertNotFrozen(actor);
      const md5 = o.md5.toLowerCase();
      if (!MD5_RE.test(md5)) throw appError('upload.md5Mismatch');
      checkSize(o.size);
      // the target folder is checked first: a stranger's folder id is refused whether or not the bytes are known
      await files.requireFolder(actor.id, o.parentId || ROOT_FOLDER_ID);
      // and a name that would be refused is refused now, not after a proof
      placementNames(o);
      const decision = await possession.decide(actor.id, md5, o.size, o.possession);
      if (!decision.reuse) return { exists: false, needUpload: true, item: null, ...(decision.possession ? { possession: decision.possession } : {}) };
      const target = await resolvePlacement(actor, o);
      // finalize with no way to store: bytes that vanished since (their last owner deleted them) are an upload again
      const item = await finalize(actor, { ...target, conflict: o.conflict }, md5, o.size, null).catch((e) => {
        if (e?.code === 'upload.md5Mismatch') return null;
        throw e;
      });
      if (!item) return { exists: false, needUpload: true, item: null };
      return { exists: true, needUpload: false, item };
    },

    /** Resumable upload: init (or resume) a session; the client sends chunks from `received`. */
    async initChunked(actor: UploadActor, o: Placement & { md5: string; size: number; possession?: PossessionProof }) {
      files.assertNotFrozen(actor);
      const md5 = o.md5.toLowerCase();
      if (!MD5_RE.test(md5)) throw appError('upload.md5Mismatch');
      checkSize(o.size);
      const usage = await quota.usage(actor.id);
      if (usage.used + o.size > usage.total) throw appError('upload.noSpace');
      const instant = await this.detectUpload(actor, o);
      if (instant.exists) return { uploadId: null, chunkSize: CHUNK_SIZE, received: o.size, item: instant.item };
      const challenge = instant.possession ? { possession: instant.possession } : {};
      const target = await resolvePlacement(actor, o);
      await nameFor(actor.id, target.parentId, target.name, md5);
      const existing = await deps.db
        .selectFrom('upload_sessions')
        .selectAll()
        .where('uid', '=', actor.id)
        .where('md5', '=', md5)
        .where('parent_id', '=', target.parentId)
        .where('name', '=', target.name)
        .executeTakeFirst();
      if (existing) {
        // resuming decides again what a name clash does
        if ((existing.conflict ?? 'rename') !== (o.conflict ?? 'rename')) await deps.db.updateTable('upload_sessions').set({ conflict: o.conflict ?? 'rename' }).where('id', '=', existing.id).execute();
        const onDisk = (await fsp.stat(this.partPath(existing.id)).catch(() => null))?.size ?? 0;
        const received = Math.min(onDisk, existing.received);
        return { uploadId: existing.id, chunkSize: CHUNK_SIZE, received, item: null, ...challenge };
      }
      // a new session: the bytes other unfinished uploads hold count too (each chunk is held as it arrives: putChunk)
      if (usage.used + usage.reserved + o.size > usage.total) throw appError('upload.noSpace');
      const id = newId();
      const now = Date.now();
      await fsp.mkdir(uploadsDir(deps.config.dataDir), { recursive: true });
      await fsp.writeFile(this.partPath(id), '');
      try {
        await sessions.open({ id, uid: actor.id, parent_id: target.parentId, name: target.name, size: o.size, md5, received: 0, conflict: o.conflict ?? 'rename', kind: 'chunked', created_at: now, updated_at: now });
      } catch (e) {
        await fsp.rm(this.partPath(id), { force: true });
        throw e;
      }
      return { uploadId: id, chunkSize: CHUNK_SIZE, received: 0, item: null, ...challenge };
    },

    partPath(uploadId: string) {
      return sessionPartPath(deps.config.dataDir, uploadId);
    },

    async session(uid: string, uploadId: string) {
      const s = await deps.db.selectFrom('upload_sessions').selectAll().where('id', '=', uploadId).where('uid', '=', uid).executeTakeFirst();
      if (!s) throw appError('item.notFound');
      return s;
    },

    /**
     * Appends a chunk at `offset`; a repeated chunk (offset below what we have) is acknowledged, not doubled. The
     * chunk's bytes (its Content-Length, else one CHUNK_SIZE) are held against the quota before it is written.
     */
    async putChunk(actor: UploadActor, uploadId: string, offset: number, body: Readable, length?: number) {
      const s = await this.session(actor.id, uploadId);
      const part = this.partPath(uploadId);
      const have = Math.min((await fsp.stat(part).catch(() => null))?.size ?? 0, s.received);
      if (offset > have) {
        body.resume();
        return { received: have };
      }
      const end = Math.min(s.size, offset + (length !== undefined && Number.isFinite(length) ? length : CHUNK_SIZE));
      try {
        await sessions.holdUpTo(actor.id, uploadId, end);
      } catch (e) {
        body.resume();
        throw e;
      }
      // truncate to the acknowledged length, then write from the client's offset
      await fsp.truncate(part, offset).catch(async () => fsp.writeFile(part, ''));
      // no byte past what is held (nor past the declared size)
      const max = end - offset;
      let written = 0;
      const out = createWriteStream(part, { flags: 'r+', start: offset });
      const { Transform } = await import('node:stream');
      const guard = new Transform({
        transform(chunk: Buffer, _e, cb) {
          written += chunk.length;
          if (written > max) return cb(new Error('chunk beyond declared size'));
          cb(null, chunk);
        },
      });
      try {
        await pipeline(body, guard, out);
      } catch (e) {
        if (written > max) throw appError('request.invalid');
        throw e;
      }
      const fh = await fsp.open(part, 'r');
      await fh.sync();
      await fh.close();
      const received = offset + written;
      const r = await deps.db.updateTable('upload_sessions').set({ received, updated_at: Date.now() }).where('id', '=', uploadId).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) {
        // the session expired while this chunk was arriving: its hold is gone, so are its bytes
        await fsp.rm(part, { force: true });
        throw appError('item.notFound');
      }
      return { received };
    },

    async completeChunked(actor: UploadActor, uploadId: string) {
      files.assertNotFrozen(actor);
      const s = await this.session(actor.id, uploadId);
      const part = this.partPath(uploadId);
      const size = (await fsp.stat(part).catch(() => null))?.size ?? 0;
      // the row, what it still holds, then the part file
      const drop = () => sessions.drop(actor.id, uploadId);
      if (size !== s.size) return { complete: false, received: Math.min(size, s.received), item: null };
      const md5 = await md5OfFile(part);
      if (md5 !== s.md5) {
        await drop();
        throw appError('upload.md5Mismatch');
      }
      try {
        const hold = { convert: () => sessions.convertHold(actor.id, uploadId, size), free: () => sessions.releaseHold(actor.id, uploadId) };
        const item = await finalize(actor, { parentId: s.parent_id, name: s.name, conflict: conflictOf(s.conflict) }, md5, size, () => deps.storage.importFile(blobs.keyOf(md5), part), hold);
        return { complete: true, received: size, item };
      } finally {
        await drop();
      }
    },

    /**
     * Direct-to-storage (call style 6): a presigned PUT to this session's own staging key; S3 itself checks the MD5.
     * Never to the blob key: an object already there (someone else's bytes) would otherwise pass the checks of
     * `completeDirect` without this caller ever sending a byte.
     */
    async initDirect(actor: UploadActor, o: Placement & { md5: string; size: number; possession?: PossessionProof }) {
      files.assertNotFrozen(actor);
      const md5 = o.md5.toLowerCase();
      if (!MD5_RE.test(md5)) throw appError('upload.md5Mismatch');
      checkSize(o.size);
      const instant = await this.detectUpload(actor, o);
      if (instant.exists) return { uploadId: null, url: null, headers: null, item: instant.item };
      const id = newId();
      const put = await deps.storage.signedPutUrl(directStagingKey(id), { expiresInSeconds: 3600, md5Hex: md5, size: o.size });
      if (!put) throw appError('upload.unsupported');
      const target = await resolvePlacement(actor, o);
      await nameFor(actor.id, target.parentId, target.name, md5);
      const now = Date.now();
      await sessions.open({ id, uid: actor.id, parent_id: target.parentId, name: target.name, size: o.size, md5, received: 0, conflict: o.conflict ?? 'rename', kind: 'direct', created_at: now, updated_at: now });
      return { uploadId: id, url: put.url, headers: put.headers, method: 'PUT', item: null, ...(instant.possession ? { possession: instant.possession } : {}) };
    },

    async completeDirect(actor: UploadActor, uploadId: string) {
      const s = await this.session(actor.id, uploadId);
      await deps.db.deleteFrom('upload_sessions').where('id', '=', uploadId).execute();
      const staged = directStagingKey(s.id);
      try {
        const size = await deps.storage.size(staged);
        const md5 = size === null ? null : deps.storage.name === 's3' && 'md5Of' in deps.storage ? await (deps.storage as any).md5Of(staged) : null;
        if (size !== s.size || (md5 !== null && md5 !== s.md5)) throw appError('upload.md5Mismatch');
        // the staged object becomes the blob when these bytes are not stored yet (a copy inside storage through
        // this process: the interface has no server-side copy), otherwise it is only dropped
        const store = async () => deps.storage.put(blobs.keyOf(s.md5), await deps.storage.get(staged), { size: s.size });
        return { complete: true, item: await finalize(actor, { parentId: s.parent_id, name: s.name, conflict: conflictOf(s.conflict) }, s.md5, s.size, store) };
      } finally {
        await deps.storage.delete(staged).catch(() => undefined);
      }
    },
  };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
