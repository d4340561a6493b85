import { promises as fsp } from 'node:fs';
import type { Readable } from 'node:stream';
import { TransformStatus, VERSION_BATCH_MAX, VERSION_RELATION_TYPES, VERSION_REMARK_TYPES, extensionOf, formatSize, type PossessionProof, type Version } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { createFilesService } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createPossessionCheck } from '../blobs/possession.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import { SCENE_PREWARM_JOB } from '../drawings/drawings.jobs.ts';
import { isViewableName } from '../drawings/viewable.ts';
import { receiveToTemp } from '../uploads/upload-temp.ts';
import { createVersionsRepository, getVersionForUser, type VersionRef, type VersionRow } from './versions.repository.ts';
import { countedBytes } from './versions.cleanup.ts';
import { createFileLock } from './file-lock.ts';
import { addDownloadGrant, downloadLink } from '../downloads/download-links.ts';

export { getVersionForUser, type VersionRef };

export interface VersionActor {
  id: string;
  name: string;
  freeze: number;
}

const MD5_RE = /^[a-f0-9]{32}$/;

/** The English text of a remark type (the spec's words; the web shows `versions.remark.<type>` instead). */
export function describeRemark(type: number, from: string | null): string {
  switch (type) {
    case VERSION_REMARK_TYPES.create: return 'create drawing';
    case VERSION_REMARK_TYPES.overwrite: return 'overwrite upload';
    case VERSION_REMARK_TYPES.rollback: return `rollback from V${from ?? ''}`;
    case VERSION_REMARK_TYPES.merged: { const [x, z] = (from ?? '').split(','); return `merged from V${x ?? ''}Z${z ?? ''}`; }
    case VERSION_REMARK_TYPES.onlineEdit: return 'online edit';
    default: return '';
  }
}

export function presentVersion(r: VersionRow, latestNumber: number): Version {
  const n = Number(r.number);
  return {
    versionId: r.id,
    id: r.id,
    fileId: r.item_id,
    version: n,
    versionName: `V${n}`,
    isLatest: n === latestNumber ? 1 : 0,
    sourceName: r.source_name,
    size: Number(r.size),
    // versions are answered to the file's owner only (requireFile/requireVersion check uid): their own bytes' MD5
    fileMD5: r.blob_md5,
    updateTime: Number(r.created_at),
    updateName: r.updater_name,
    updateUid: r.updater_uid,
    remarkType: r.remark_type,
    remarkFrom: r.remark_from,
    remark: r.remark,
    description: r.description,
    relationId: r.relation_id,
    relationType: r.relation_type,
  };
}

/** "plan.dwg", 3 → "plan_V3.dwg" (the download name of a version). */
export function versionFileName(sourceName: string, n: number): string {
  const dot = sourceName.lastIndexOf('.');
  return dot > 0 ? `${sourceName.slice(0, dot)}_V${n}${sourceName.slice(dot)}` : `${sourceName}_V${n}`;
}

/** One lock registry per database handle: the in-memory queue in front of the lock row is shared by every service instance. */
const fileLocks = new WeakMap<object, ReturnType<typeof createFileLock>>();
function fileLockOf(deps: AppDeps) {
  let l = fileLocks.get(deps.db);
  if (!l) fileLocks.set(deps.db, (l = createFileLock(deps.db)));
  return l;
}

class NumberTaken extends Error {}

interface NewContent {
  md5: string;
  size: number;
  sourceName: string;
  remarkType: number;
  remarkFrom?: string | null;
  relationId?: string | null;
  relationType?: number;
  /** an upload over the file: bytes equal to its current content are the repeated-upload error (checked inside the lock) */
  refuseCurrent?: boolean;
}

/**
 * Version history (spec sections 3, 5, 7). A version holds one reference on its blob; the file (item) holds its own
 * on the current content, which is always the latest version. Storage is counted as `countedBytes` (versions.cleanup.ts).
 */
export function createVersionsService(deps: AppDeps) {
  const repo = createVersionsRepository(deps.db);
  const files = createFilesService(deps);
  const quota = createQuotaService(deps);
  const blobs = createBlobsService(deps);
  const possession = createPossessionCheck(deps);
  const thumbnails = createThumbnailsService(deps);
  const limit = deps.config.webUploadFileSize;
  // one change at a time per file, across processes (file-lock.ts says why)
  const withFileLock = fileLockOf(deps);

  /** A live file of the user with content; folders and other users' files are "file does not exist". */
  async function requireFile(uid: string, fileId: string): Promise<ItemRow & { blob_md5: string }> {
    const item = await files.repo.findOne(uid, fileId);
    if (!item || item.kind !== 1 || !item.blob_md5) throw appError('item.notFound');
    return item as ItemRow & { blob_md5: string };
  }

  async function requireVersion(uid: string, versionId: string) {
    const v = await repo.findOwned(uid, versionId);
    if (!v) throw appError('item.notFound');
    return v;
  }

  async function userName(uid: string): Promise<string> {
    const u = await deps.db.selectFrom('users').select('name').where('id', '=', uid).executeTakeFirst();
    return u?.name ?? '';
  }

  function versionRow(item: ItemRow, number: number, c: NewContent, updater: { id: string; name: string }): VersionRow {
    return {
      id: newId(), item_id: item.id, uid: item.uid, number, blob_md5: c.md5, size: c.size, source_name: c.sourceName, updater_uid: updater.id, updater_name: updater.name,
      remark_type: c.remarkType, remark_from: c.remarkFrom ?? null, remark: '', description: describeRemark(c.remarkType, c.remarkFrom ?? null),
      relation_id: c.relationId ?? null, relation_type: c.relationType ?? VERSION_RELATION_TYPES.none, created_at: Date.now(), deleted_at: null,
    };
  }

  /**
   * The file's live versions, newest first, written down when missing: a file without history gets V1 = its current
   * content ('create drawing'); content changed by something else than this module gets a new version ('online edit').
   * Call inside the file's lock.
   */
  async function ensureHistory(item: ItemRow & { blob_md5: string }): Promise<VersionRow[]> {
    let live = await repo.liveOfItem(item.uid, item.id);
    if (live.length && live[0].blob_md5 === item.blob_md5) return live;
    const max = await repo.maxNumber(item.id);
    const first = max === 0;
    const c: NewContent = { md5: item.blob_md5, size: Number(item.size), sourceName: item.name, remarkType: first ? VERSION_REMARK_TYPES.create : VERSION_REMARK_TYPES.onlineEdit };
    const row = versionRow(item, max + 1, c, { id: item.uid, name: await userName(item.uid) });
    if (first) row.created_at = Number(item.created_at);
    // the earlier content becomes history: it counts now (best effort; the change already happened)
    const before = countedBytes(item, live);
    try {
      await repo.insert(row);
    } catch (e) {
      if (!isUniqueViolation(e)) throw e;
      // another process wrote it at the same moment
      return repo.liveOfItem(item.uid, item.id);
    }
    await blobs.addRef(item.blob_md5);
    live = await repo.liveOfItem(item.uid, item.id);
    const delta = countedBytes(item, live) - before;
    if (delta > 0) await quota.reserve(item.uid, delta).catch(() => undefined);
    return live;
  }

  /**
   * Appends V(n+1) with content `c` and points the file at it: storage reserved first (the existing not-enough-space
   * error), the bytes' reference taken, the row and the file updated together, then thumbnail and scene prewarm.
   */
  async function append(actor: VersionActor, fileId: string, c: NewContent, store: (() => Promise<void>) | null): Promise<Version> {
    if (actor.freeze === 1) throw appError('account.frozen');
    // another process took the same number at the same moment (the unique index decides): read again and retry
    for (let attempt = 1; ; attempt++) {
      try {
        return await appendOnce(actor, fileId, c, store);
      } catch (e) {
        if (!(e instanceof NumberTaken) || attempt >= 3) throw e instanceof NumberTaken ? appError(c.remarkType === VERSION_REMARK_TYPES.rollback ? 'version.rollbackFailed' : 'request.invalid') : e;
      }
    }
  }

  async function appendOnce(actor: VersionActor, fileId: string, c: NewContent, store: (() => Promise<void>) | null): Promise<Version> {
    return withFileLock(fileId, async () => {
      const item = await requireFile(actor.id, fileId);
      // section 4: a converting file keeps its content (its conversion reads it), like its name and place
      if (item.transform_status === TransformStatus.IN_TRANSFORM) throw appError('conversion.inProgress');
      if (c.refuseCurrent && item.blob_md5 === c.md5) throw appError('upload.repeated');
      const live = await ensureHistory(item);
      const max = await repo.maxNumber(item.id);
      const row = versionRow(item, max + 1, c, actor);
      const nextItem = { ...item, blob_md5: c.md5, size: c.size };
      const delta = countedBytes(nextItem, [row, ...live]) - countedBytes(item, live);
      await quota.reserve(actor.id, delta);
      try {
        if (!(await blobs.find(c.md5))) {
          if (!store) throw appError('upload.md5Mismatch');
          await store();
          await blobs.register(c.md5, c.size);
        }
        // one reference for the version row, one for the file now showing these bytes
        await blobs.addRef(c.md5, 2);
        const now = Date.now();
        const patch: Partial<ItemRow> = { blob_md5: c.md5, size: c.size, version: row.number, modified_at: now, thumbkey: null };
        try {
          await deps.db.transaction().execute(async (trx) => {
            await repo.insert(row, trx);
            // checked again by the write itself: a conversion admitted since the check above wins
            if (!(await files.repo.updateUnlessConverting(actor.id, item.id, patch, trx))) throw appError('conversion.inProgress');
          });
        } catch (e) {
          await blobs.release([c.md5, c.md5]);
          if (isUniqueViolation(e)) throw new NumberTaken();
          throw e;
        }
        // the file's reference on its previous content (kept alive by that version's own reference)
        await blobs.release([item.blob_md5]);
        // the thumbnail it showed with its owner's pictures, if no other file shows it
        await thumbnails.variants.release([item.thumbkey]);
        const updated = { ...item, ...patch } as ItemRow;
        await thumbnails.afterUpload(updated);
        if (isViewableName(updated.name) && c.size <= deps.config.webOpenFileSize) {
          await deps.queue.enqueue(SCENE_PREWARM_JOB, { uid: item.uid, fileId: item.id }, { jobId: `scene-${item.id}-v${row.number}`, attempts: 1 }).catch((e) => console.error(`scene of ${item.id} V${row.number}: could not be queued`, e));
        }
        return presentVersion(row, row.number);
      } catch (e) {
        await quota.release(actor.id, delta);
        throw e;
      }
    });
  }

  /** A new version is the same kind of file: a .dwg's history holds .dwg files. */
  function assertSameType(item: ItemRow, sourceName: string) {
    if (extensionOf(sourceName) !== extensionOf(item.name)) throw appError('version.typeMismatch');
  }

  /** Deletes versions of one file (never its latest, so never the only one): references and extra storage go back. */
  async function removeOfFile(uid: string, fileId: string, ids: string[]) {
    return withFileLock(fileId, async () => {
      const item = await requireFile(uid, fileId);
      const live = await ensureHistory(item);
      const byId = new Map(live.map((v) => [v.id, v]));
      const rows = ids.map((id) => byId.get(id));
      if (rows.some((r) => !r)) throw appError('item.notFound');
      if (rows.some((r) => r!.id === live[0].id)) throw appError('version.deleteLatest');
      const before = countedBytes(item, live);
      const after = countedBytes(item, live.filter((v) => !ids.includes(v.id)));
      const n = await repo.markDeleted(uid, ids, Date.now());
      if (n !== ids.length) {
        // another process deleted some of them meanwhile: its call gave back their references and storage
        throw appError('version.deleteFailed');
      }
      await blobs.release(rows.map((r) => r!.blob_md5));
      await quota.release(uid, before - after);
      return rows.length;
    });
  }

  return {
    repo,

    /** version/history: newest first, filtered by source file name and updater. Writes V1 down on the first call. */
    async history(uid: string, o: { fileId: string; sourceName?: string; updateName?: string; pageNo: number; pageSize: number }) {
      const item = await requireFile(uid, o.fileId);
      const live = await withFileLock(item.id, () => ensureHistory(item));
      const latest = Number(live[0].number);
      const { rows, total } = await repo.list(uid, item.id, { sourceName: o.sourceName?.trim() || undefined, updateName: o.updateName?.trim() || undefined, offset: (o.pageNo - 1) * o.pageSize, limit: o.pageSize });
      return { list: rows.map((r) => presentVersion(r, latest)), total, pageNo: o.pageNo, pageSize: o.pageSize, latestNumber: latest, fileName: item.name, fileId: item.id };
    },

    /** Every live version of a file, newest first, as references (the compare module lists through this). */
    async listForUser(uid: string, fileId: string): Promise<(VersionRef & { isLatest: boolean })[]> {
      const item = await requireFile(uid, fileId);
      const live = await withFileLock(item.id, () => ensureHistory(item));
      return live.map((r, i) => ({ ...repo.toRef(r), isLatest: i === 0 }));
    },

    async latestNumber(uid: string, fileId: string) {
      const item = await requireFile(uid, fileId);
      const live = await withFileLock(item.id, () => ensureHistory(item));
      return { fileId: item.id, version: Number(live[0].number), versionId: live[0].id };
    },

    /** Multipart version/upload: hashed while streaming to a temp file; bytes already stored are not stored again. */
    async upload(actor: VersionActor, fileId: string, filename: string, tmp: { path: string; size: number; md5: string }, declaredMd5?: string) {
      const item = await requireFile(actor.id, fileId);
      assertSameType(item, filename);
      if (tmp.size <= 0) throw appError('upload.empty');
      if (declaredMd5 && declaredMd5.toLowerCase() !== tmp.md5) throw appError('upload.md5Mismatch');
      return append(actor, fileId, { md5: tmp.md5, size: tmp.size, sourceName: filename, remarkType: VERSION_REMARK_TYPES.overwrite }, () => deps.storage.importFile(blobKey(tmp.md5), tmp.path));
    },

    /**
     * An upload over a live file of the same name (uploads module, conflict 'version'): the bytes become V(n+1)
     * 'overwrite upload' of that file. `store` puts the bytes under their key when they are not stored yet.
     */
    async overwriteUpload(actor: VersionActor, fileId: string, c: { md5: string; size: number; sourceName: string }, store: (() => Promise<void>) | null) {
      const item = await requireFile(actor.id, fileId);
      assertSameType(item, c.sourceName);
      return append(actor, fileId, { md5: c.md5, size: c.size, sourceName: c.sourceName, remarkType: VERSION_REMARK_TYPES.overwrite, refuseCurrent: true }, store);
    },

    /** Receives a multipart body to a temp file (the upload size limit applies); the caller removes it. */
    async receive(stream: Readable) {
      const tmp = await receiveToTemp(deps.config.dataDir, stream, limit);
      if (tmp.tooLarge) throw appError('upload.tooLarge', [formatSize(limit)]);
      return tmp;
    },
    async dropTemp(p: string) {
      await fsp.rm(p, { force: true });
    },

    /**
     * Instant version upload: the version appears and no bytes are sent when they are stored and the caller owns them
     * already or proves to hold them (blobs/possession.ts, the same terms as file/detectUpload).
     */
    async instantUpload(actor: VersionActor, o: { fileId: string; md5: string; size: number; name?: string; possession?: PossessionProof }) {
      const item = await requireFile(actor.id, o.fileId);
      const md5 = o.md5.toLowerCase();
      if (!MD5_RE.test(md5)) throw appError('upload.md5Mismatch');
      if (o.size > limit) throw appError('upload.tooLarge', [formatSize(limit)]);
      const name = o.name?.trim() || item.name;
      assertSameType(item, name);
      const decision = await possession.decide(actor.id, md5, o.size, o.possession);
      if (!decision.reuse) return { exists: false, needUpload: true, version: null, ...(decision.possession ? { possession: decision.possession } : {}) };
      const version = await append(actor, o.fileId, { md5, size: o.size, sourceName: name, remarkType: VERSION_REMARK_TYPES.overwrite }, null).catch((e) => {
        // bytes that vanished since (their last owner deleted them): an upload again
        if (e?.code === 'upload.md5Mismatch') return null;
        throw e;
      });
      if (!version) return { exists: false, needUpload: true, version: null };
      return { exists: true, needUpload: false, version };
    },

    /** version/copy: another of the user's cloud files becomes the new version (no bytes move). */
    async copy(actor: VersionActor, o: { fileId: string; sourceFileId?: string }) {
      if (!o.sourceFileId) throw appError('version.selectFile');
      const item = await requireFile(actor.id, o.fileId);
      const src = await requireFile(actor.id, o.sourceFileId);
      assertSameType(item, src.name);
      return append(actor, o.fileId, { md5: src.blob_md5, size: Number(src.size), sourceName: src.name, remarkType: VERSION_REMARK_TYPES.overwrite, relationId: src.id, relationType: VERSION_RELATION_TYPES.cloudFile }, null);
    },

    /** version/back: never destroys; Vx's content becomes V(n+1) 'rollback from Vx'. The latest is not rolled back to. */
    async back(actor: VersionActor, o: { versionId: string; relationId?: string }) {
      const v = await requireVersion(actor.id, o.versionId);
      if (o.relationId && o.relationId !== v.item_id) throw appError('version.rollbackFailed');
      const latest = (await repo.liveOfItem(actor.id, v.item_id))[0];
      if (latest && latest.id === v.id) throw appError('version.rollbackFailed');
      return append(actor, v.item_id, {
        md5: v.blob_md5, size: Number(v.size), sourceName: v.source_name, remarkType: VERSION_REMARK_TYPES.rollback, remarkFrom: String(v.number),
        relationId: v.id, relationType: VERSION_RELATION_TYPES.version,
      }, null);
    },

    async remove(uid: string, versionIds: string[]) {
      const unique = [...new Set(versionIds)];
      if (!unique.length) throw appError('version.selectFile');
      if (unique.length > VERSION_BATCH_MAX) throw appError('request.invalid');
      const rows = await repo.findManyOwned(uid, unique);
      if (rows.length !== unique.length) throw appError('item.notFound');
      const byFile = new Map<string, string[]>();
      for (const r of rows) byFile.set(r.item_id, [...(byFile.get(r.item_id) ?? []), r.id]);
      // all or nothing: every file's part is checked before anything is deleted
      for (const [fileId, ids] of byFile) {
        const live = await repo.liveOfItem(uid, fileId);
        if (ids.includes(live[0]?.id)) throw appError('version.deleteLatest');
      }
      let deleted = 0;
      for (const [fileId, ids] of byFile) deleted += await removeOfFile(uid, fileId, ids);
      return { deleted };
    },

    async updateRemark(uid: string, o: { versionId: string; remark: string }) {
      const v = await requireVersion(uid, o.versionId);
      const remark = o.remark.trim();
      await repo.update(uid, v.id, { remark });
      const latest = (await repo.liveOfItem(uid, v.item_id))[0];
      return presentVersion({ ...v, remark }, Number(latest?.number ?? v.number));
    },

    /** A download link of a version's bytes, named "<source>_V<n>.<ext>" (download-links.ts). */
    async download(uid: string, versionId: string) {
      const v = await requireVersion(uid, versionId);
      const name = versionFileName(v.source_name, Number(v.number));
      const { url } = downloadLink(deps, { k: 'version', u: uid, v: v.id });
      return { signedUrl: url, downloadUrl: url, name, size: Number(v.size) };
    },

    /** The links' check (registered once per app, by the routes): the version and its file still live. */
    registerGrants() {
      addDownloadGrant(deps, 'version', async (g) => {
        const v = await requireVersion(String(g.u), String(g.v));
        if (!(await files.repo.findOne(v.uid, v.item_id))) throw appError('item.notFound');
        return { key: blobKey(v.blob_md5), name: versionFileName(v.source_name, Number(v.number)) };
      });
    },

    /** The entries of downloadBatchZip, in the order asked; every id must be the user's live version. */
    async batchEntries(uid: string, ids: string[]) {
      const unique = [...new Set(ids)];
      if (!unique.length) throw appError('version.selectFile');
      if (unique.length > VERSION_BATCH_MAX) throw appError('request.invalid');
      const rows = await repo.findManyOwned(uid, unique);
      if (rows.length !== unique.length) throw appError('item.notFound');
      const byId = new Map(rows.map((r) => [r.id, r]));
      return unique.map((id) => byId.get(id)!).map((r) => ({ name: versionFileName(r.source_name, Number(r.number)), key: blobKey(r.blob_md5), size: Number(r.size), modified: Number(r.created_at) }));
    },

    /** Viewer access to an earlier version: the owner only, the version must belong to the file asked for. */
    async drawingSource(uid: string, fileId: string, versionId: string) {
      const v = await repo.findOwned(uid, versionId);
      if (!v || v.item_id !== fileId) return undefined;
      const item = await files.repo.findOne(uid, fileId);
      if (!item || item.kind !== 1) return undefined;
      return { name: v.source_name, size: Number(v.size), freeze: item.freeze, blobMd5: v.blob_md5, fontsOwner: uid };
    },
  };
}

export type VersionsService = ReturnType<typeof createVersionsService>;
