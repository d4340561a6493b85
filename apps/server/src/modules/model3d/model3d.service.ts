import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { ERRORS, TransformStatus, extensionOf, type ErrorCode, type Model3dStatus, type Model3dTask, type RevitInfo3D } from '@cadcloud/contracts';
import { serverMessage, type Language } from '@cadcloud/i18n';
import { companionNamesOf, convertInWorker, formatOf, Model3dError, NotRevit, readRevitInfo, type ConvertResult, type RevitInfo } from '@cadcloud/model3d';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import type { JobContext } from '../../infra/queue/queue.types.ts';
import { addDownloadGrant, downloadLink } from '../downloads/download-links.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createFilesService } from '../files/files.service.ts';
import { createSharesService } from '../shares/shares.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { stemOf } from '../files/item-names.ts';
import { DRAWING_TYPES, thumbkeyOf, thumbnailStorageKey } from '../thumbnails/thumbnails.keys.ts';
import { glbKey, lodKey, revitInfoKey } from './model3d.keys.ts';
import { throttledProgress } from './model3d.progress.ts';
import { createModel3dRepository, type Model3dRow } from './model3d.repository.ts';

export const MODEL3D_RUN_JOB = 'model3d.run';
/** Ends 3D conversions whose job the queue gave up on (as conversion.sweep does for drawings). */
export const MODEL3D_SWEEP_JOB = 'model3d.sweep';
/** A conversion whose process died runs once more; the queue's attempts. */
export const MODEL3D_ATTEMPTS = 2;
/** the part of the bar the worker's own stages fill (reading the source before, storing the GLB after) */
const WORKER_SPAN = [10, 90] as const;
/** at most one progress write per this many ms (a few a second) */
const PROGRESS_WRITE_MS = 250;
/** the thumbnail's size (pixels square) */
const THUMBNAIL_PX = 256;
/** files read beside one model at most (an OBJ's MTLs and their images, a .gltf's buffers and images) */
const MAX_COMPANIONS = 64;

/** Who asks: the signed-in user (the super membership decides the trials). */
export interface Model3dActor {
  id: string;
  vip_type?: number;
  /** users.freeze: a frozen account converts nothing (spec section 4) */
  freeze?: number;
}

/** the files converted beside a model, as one digest (their names and bytes); null when none */
function digestOf(files: Map<string, Uint8Array>): string | null {
  if (!files.size) return null;
  const h = createHash('sha256');
  for (const [name, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) h.update(`${name}\0${bytes.length}\0`).update(bytes);
  return h.digest('hex').slice(0, 32);
}

async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Revit keeps its geometry in a closed format: no open reader exists, the user is told to export IFC. */
const isRevit = (name: string) => extensionOf(name) === 'rvt';

/**
 * A drawing (DWG/DXF) converted to 3D for its solids keeps its 2D thumbnail: the drawing's own thumbnail job owns
 * that key (the same `v1-<md5>.png`), and the 2D viewer stays the drawing's.
 */
const isDrawing = (name: string) => (DRAWING_TYPES as readonly string[]).includes(extensionOf(name));

/** A conversion failure's code (and its message's numbers) by how the converter failed (packages/model3d errors.ts kinds). */
function failureOf(e: unknown): { code: ErrorCode; args?: number[] } {
  if (!(e instanceof Model3dError)) return { code: 'model3d.failed' };
  if (e.overLimit) return { code: e.overLimit.what === 'triangles' ? 'model3d.tooManyTriangles' : 'model3d.tooManyVertices', args: [e.overLimit.count, e.overLimit.limit] };
  if (e.kind === 'too-large') return { code: 'model3d.tooLarge' };
  if (e.kind === 'timeout') return { code: 'model3d.timeout' };
  return { code: 'model3d.openFailed' };
}

/**
 * 3D models (issue 21): a user's own 3D files converted, one job per file, to a GLB the viewer (/view3d) opens, with a
 * PNG thumbnail shown on the file. Super members convert freely; others get the operator's free trials (a failed
 * conversion spends none). The source shows 0 converting, 1 done, 2 failed (spec section 4). Shares: a recipient
 * converts nothing of the sharer's (own file ids only) but opens a model the sharer converted (sharedStatus).
 */
export function createModel3dService(deps: AppDeps) {
  const repo = createModel3dRepository(deps.db);
  const files = createFilesService(deps);
  const shares = createSharesService(deps);
  const cfg = deps.config;

  const membership = createMembershipService(deps);

  /** How many trials remain: null when unlimited (super membership, or the operator made 3D conversion free). */
  async function remainingOf(actor: Model3dActor, t = deps.db): Promise<{ remaining: number | null; superMember: boolean }> {
    const superMember = await membership.may(actor.id, 'model3d', Date.now(), t);
    if (superMember || cfg.free3dTrials === null) return { remaining: null, superMember };
    return { remaining: Math.max(0, cfg.free3dTrials - (await repo.trialsUsed(actor.id, t))), superMember };
  }

  /** the failure's message in the caller's language, its numbers written as that language writes them */
  function message(code: string | null, args: string | null | undefined, lang: Language): string | null {
    const e = code ? ERRORS[code as ErrorCode] : undefined;
    const nums = args ? (JSON.parse(args) as number[]).map((n) => n.toLocaleString(lang)) : undefined;
    return e ? serverMessage(e.key, lang, nums) : null;
  }

  /**
   * A file's conversion as the API answers it. `link` makes the GLB's signed link (`lod`: its coarse level's), asked
   * only once the conversion is done with the bytes the file has now (the owner's: file F of user U; a share's: file F
   * through share S).
   */
  function present(
    fileId: string, name: string, r: Model3dRow | undefined, item: ItemRow | undefined, lang: Language,
    link: (lod: boolean) => string = (lod) => downloadLink(deps, { k: 'glb', u: r!.uid, f: item!.id, b: r!.source_md5, ...(r!.companions ? { c: r!.companions } : {}), ...(lod ? { l: 1 } : {}) }).url,
  ): Model3dStatus {
    if (!r) return { fileId, name, transformStatus: TransformStatus.NO_TRANSFORM, progress: 0, stage: '', code: null, msg: null, glbUrl: null, lodUrl: null, stats: null };
    const done = r.state === TransformStatus.SUCCESS_TRANSFORM;
    // the link only while the file is still the user's with the bytes that were converted
    const linked = done && item && item.blob_md5 === r.source_md5;
    const stats = done && r.stats ? JSON.parse(r.stats) : null;
    const glbUrl = linked ? link(false) : null;
    // the coarse level's link is the GLB's grant with `l`: the same check, the other key
    const lodUrl = linked && stats?.lod ? link(true) : null;
    return {
      fileId, name: item?.name ?? r.source_name, transformStatus: r.state, progress: Number(r.progress), stage: r.stage,
      code: r.error, msg: message(r.error, r.error_args, lang), glbUrl, lodUrl, stats,
    };
  }

  /** Checks the files of a conversion request: the caller's own, live, 3D models a converter reads. */
  function checkConvertible(rows: ItemRow[]) {
    for (const r of rows) {
      if (r.kind !== 1 || !r.blob_md5) throw appError('model3d.notModel');
      if (isRevit(r.name)) throw appError('model3d.revit');
      if (!formatOf(r.name)) throw appError('model3d.notModel');
    }
  }

  /**
   * Admits the conversions in one drive write (the user's lock, as conversions do): the trial count, the sources'
   * state, the new rows and the sources marked converting commit together, so parallel requests never start two jobs
   * of one source nor spend more trials than there are; the unique index on running rows is the last word.
   */
  async function admit(actor: Model3dActor, ids: string[]): Promise<Model3dRow[]> {
    try {
      return await files.driveWrite(actor.id, async (t) => {
        const rows = await files.repo.findOwned(actor.id, ids, {}, t);
        if (rows.length !== ids.length) throw appError('item.notFound');
        checkConvertible(rows);
        if (rows.some((r) => r.transform_status === TransformStatus.IN_TRANSFORM) || (await repo.runningOfSources(ids, t)).length) throw appError('model3d.converting');
        const { remaining } = await remainingOf(actor, t);
        if (remaining !== null && rows.length > remaining) throw appError('model3d.trialsUsed');
        const now = Date.now();
        const started: Model3dRow[] = [];
        for (const src of rows) {
          const row: Model3dRow = {
            id: newId(), uid: actor.id, source_id: src.id, source_name: src.name, source_md5: src.blob_md5!, state: TransformStatus.IN_TRANSFORM, progress: 0, stage: 'queued',
            trial: remaining === null ? 0 : 1, stats: null, error: null, error_args: null, detail: null, created_at: now, updated_at: now, finished_at: null, companions: null, companion_refs: null,
          };
          await repo.insert(row, t);
          await files.repo.update(actor.id, src.id, { transform_status: TransformStatus.IN_TRANSFORM }, t);
          started.push(row);
        }
        return started;
      });
    } catch (e) {
      if (isUniqueViolation(e)) throw appError('model3d.converting');
      throw e;
    }
  }

  /**
   * The file's state first, then the conversion's: whoever sees the conversion ended finds the file free (a delete
   * right after the status poll). A process dying between the two leaves the conversion running: its job ends it.
   */
  async function fail(c: Model3dRow, code: ErrorCode, detail: string | null, args?: number[]) {
    const running = await repo.byId(c.id);
    if (running?.state !== TransformStatus.IN_TRANSFORM) return { failed: code, ended: false };
    const src = await files.repo.findOne(c.uid, c.source_id);
    if (src) await files.repo.update(c.uid, src.id, { transform_status: TransformStatus.FAIL_TRANSFORM });
    await repo.finish(c.id, { state: 2, error: code, error_args: args ? JSON.stringify(args) : null, detail: detail?.slice(0, 500) ?? null });
    return { failed: code, detail };
  }

  async function finishOk(c: Model3dRow, stats: unknown, thumbkey: string | null, companions: string | null, refs: Array<[string, string | null]>) {
    const running = await repo.byId(c.id);
    if (running?.state !== TransformStatus.IN_TRANSFORM) return { done: c.id, stats, ended: false };
    const src = await files.repo.findOne(c.uid, c.source_id);
    // the thumbnail shows on the file while it keeps the converted bytes
    if (src) await files.repo.update(c.uid, src.id, { transform_status: TransformStatus.SUCCESS_TRANSFORM, ...(thumbkey && src.blob_md5 === c.source_md5 ? { thumbkey } : {}) });
    await repo.finish(c.id, { state: 1, stats: JSON.stringify(stats), companions, companion_refs: refs.length ? JSON.stringify(refs) : null });
    return { done: c.id, stats };
  }

  /** The owner's conversion of a shared file, when it converted the bytes the file has now (undefined otherwise). */
  async function convertedOfShared(ownerUid: string, row: ItemRow): Promise<Model3dRow | undefined> {
    const r = (await repo.latestOfSources(ownerUid, [row.id])).get(row.id);
    return r?.state === TransformStatus.SUCCESS_TRANSFORM && r.source_md5 === row.blob_md5 ? r : undefined;
  }

  /**
   * Where a name a model writes is looked up: by the path it writes (`textures/wood.png` in a subfolder `textures`),
   * or else by the bare name in the model's own folder.
   */
  function companionFinder(src: ItemRow) {
    return async (written: string): Promise<ItemRow | undefined> => {
      const parts = written.split(/[\\/]/).filter((p) => p && p !== '.');
      if (parts.some((p) => p === '..')) return undefined;
      let folder = src.parent_id;
      for (const dir of parts.slice(0, -1)) {
        const f = await files.repo.findByName(src.uid, folder, dir, 0);
        if (!f) return files.repo.findByName(src.uid, src.parent_id, parts[parts.length - 1], 1);
        folder = f.id;
      }
      return parts.length ? files.repo.findByName(src.uid, folder, parts[parts.length - 1], 1) : undefined;
    };
  }

  /**
   * The files a model names beside itself, found in its folder (companionFinder), and those they name in turn (an
   * MTL's images): their bytes by the name as written. Missing ones are left out (the converter falls back, or says
   * what is missing); their sizes count against the input cap with the model's. `refs`: every name looked for with
   * the md5 found (null: missing), to tell later whether the folder still holds the same files (companionsStale).
   */
  async function companionsOf(src: ItemRow, bytes: Uint8Array, cap: number): Promise<{ found: Map<string, Uint8Array>; refs: Array<[string, string | null]> }> {
    const found = new Map<string, Uint8Array>();
    const refs = new Map<string, string | null>();
    const find = companionFinder(src);
    let total = bytes.length;
    const queue = companionNamesOf(src.name, bytes).map((n) => ({ n }));
    while (queue.length && found.size < MAX_COMPANIONS) {
      const { n } = queue.shift()!;
      if (refs.has(n)) continue;
      const row = await find(n);
      const usable = !!row?.blob_md5 && row.id !== src.id;
      refs.set(n, usable ? row!.blob_md5 : null);
      if (!usable) continue;
      total += Number(row!.size);
      if (total > cap) throw new Model3dError('too-large', `${src.name} with the files beside it is more than ${cap} bytes`);
      const b = new Uint8Array(await readAll(await deps.storage.get(blobKey(row!.blob_md5!))));
      found.set(n, b);
      for (const m of companionNamesOf(row!.name, b)) queue.push({ n: m });
    }
    return { found, refs: [...refs] };
  }

  /**
   * Whether the files looked for beside a converted model changed since (an MTL or a texture uploaded after the OBJ
   * was converted, replaced or removed): its GLB no longer shows what the folder holds. Only names and md5s are
   * compared (no bytes read); conversions made before the names were kept are taken as they are.
   */
  async function companionsStale(src: ItemRow, c: Model3dRow): Promise<boolean> {
    if (!c.companion_refs) return false;
    const find = companionFinder(src);
    for (const [name, md5] of JSON.parse(c.companion_refs) as Array<[string, string | null]>) {
      const row = await find(name);
      const now = row?.blob_md5 && row.id !== src.id ? row.blob_md5 : null;
      if (now !== md5) return true;
    }
    return false;
  }

  const service = {
    /** The download link's check, registered once per app (routes): the file still the user's, with the converted bytes. */
    registerGrants() {
      // through a share: the share still active and reaching the file (a group's member still one), the owner's
      // conversion of the file's present bytes done; the grant names the share and the file, no owner and no hash
      addDownloadGrant(deps, 'glb-share', async (g, { uid }) => {
        if (g.u !== undefined && g.u !== uid) throw appError('share.tokenInvalid');
        const hit = await shares.sharedFileById(String(g.s), String(g.f), uid);
        const converted = hit && (await convertedOfShared(hit.ownerUid, hit.row));
        if (!hit || !converted) throw appError('download.linkExpired');
        if (hit.row.freeze === 1) throw appError('file.frozen');
        const key = g.l === 1 ? lodKey(hit.row.blob_md5!, converted.companions) : glbKey(hit.row.blob_md5!, converted.companions);
        if (!(await deps.storage.exists(key))) throw appError('download.linkExpired');
        return { key, name: `${stemOf(hit.row.name, false)}.glb` };
      });
      addDownloadGrant(deps, 'glb', async (g) => {
        const row = await files.repo.findOne(String(g.u), String(g.f));
        if (!row || row.kind !== 1 || row.blob_md5 !== String(g.b)) throw appError('download.linkExpired');
        const lod = g.l === 1;
        const companions = g.c ? String(g.c) : null;
        const key = lod ? lodKey(row.blob_md5, companions) : glbKey(row.blob_md5, companions);
        if (!(await deps.storage.exists(key))) throw appError('download.linkExpired');
        return { key, name: `${stemOf(row.name, false)}${lod ? '.lod' : ''}.glb` };
      });
    },

    /** transformBatch3D: converts the caller's own 3D files (isTransForm false: only answers their statuses). */
    async transformBatch(actor: Model3dActor, req: { fileIds: string[]; isTransForm?: boolean }, lang: Language) {
      const ids = [...new Set(req.fileIds)];
      const rows = await files.repo.findOwned(actor.id, ids);
      if (rows.length !== ids.length) throw appError('item.notFound');
      checkConvertible(rows);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const latest = await repo.latestOfSources(actor.id, ids);
      // converted already (same bytes, GLB kept, the same files beside it): nothing to do
      const converted = async (r: ItemRow) => {
        const l = latest.get(r.id);
        return !!l && l.state === TransformStatus.SUCCESS_TRANSFORM && l.source_md5 === r.blob_md5 && (await deps.storage.exists(glbKey(r.blob_md5!, l.companions))) && !(await companionsStale(r, l));
      };
      const todo: string[] = [];
      for (const r of rows) if (!(await converted(r))) todo.push(r.id);
      if (req.isTransForm !== false && todo.length) {
        if (actor.freeze === 1) throw appError('account.frozen');
        if (rows.some((r) => r.transform_status === TransformStatus.IN_TRANSFORM)) throw appError('model3d.converting');
        const started = await admit(actor, todo);
        for (const c of started) {
          latest.set(c.source_id, c);
          try {
            await deps.queue.enqueue(MODEL3D_RUN_JOB, { id: c.id }, { jobId: `model3d-${c.id}`, attempts: MODEL3D_ATTEMPTS });
          } catch (e) {
            await fail(c, 'model3d.failed', `not queued: ${String(e)}`);
            throw e;
          }
        }
      }
      return { list: ids.map((id) => present(id, byId.get(id)!.name, latest.get(id), byId.get(id), lang)), allDone: todo.length === 0 };
    },

    /**
     * revitInfo3D: what the caller's own Revit file tells without its geometry (version, build, title, paths), read
     * once per content and kept beside it, with the advice to export IFC. Files above REVIT_MAX_READ_MB are not read.
     */
    async revitInfo(uid: string, fileId: string, lang: Language): Promise<RevitInfo3D> {
      const row = await files.repo.findOne(uid, fileId);
      if (!row || row.kind !== 1 || !row.blob_md5) throw appError('item.notFound');
      if (!isRevit(row.name)) throw appError('model3d.notModel');
      const advice = serverMessage(ERRORS['model3d.revit'].key, lang);
      const key = revitInfoKey(row.blob_md5);
      if (await deps.storage.exists(key)) return { ...(JSON.parse((await readAll(await deps.storage.get(key))).toString()) as RevitInfo), advice };
      if (Number(row.size) > cfg.revitMaxReadMb * 1024 * 1024) throw appError('model3d.tooLarge');
      let info: RevitInfo;
      try {
        info = readRevitInfo(await readAll(await deps.storage.get(blobKey(row.blob_md5))));
      } catch (e) {
        if (e instanceof NotRevit) throw appError('model3d.openFailed');
        throw e;
      }
      const json = Buffer.from(JSON.stringify(info));
      await deps.storage.put(key, json, { size: json.length, contentType: 'application/json' });
      return { ...info, advice };
    },

    /** checkTransformSuplus3D: how many conversions the caller has left. */
    remaining: (actor: Model3dActor) => remainingOf(actor),

    /** checkTaskStatus3D / checkTaskStatusBatch3D: each file's latest conversion (3 when never converted). */
    async statusBatch(uid: string, fileIds: string[], lang: Language) {
      const ids = [...new Set(fileIds)];
      const latest = await repo.latestOfSources(uid, ids);
      const live = new Map((await files.repo.findOwned(uid, ids)).map((r) => [r.id, r]));
      // the caller's own sources (live, or converted before they were deleted); anything else is not told apart from missing
      if (ids.some((id) => !live.has(id) && !latest.has(id))) throw appError('item.notFound');
      const list = ids.map((id) => present(id, live.get(id)?.name ?? latest.get(id)!.source_name, latest.get(id), live.get(id), lang));
      // a converted model whose MTL or textures changed since: the viewer converts it again (View3dPage)
      for (const s of list) {
        const item = live.get(s.fileId);
        if (s.glbUrl && item && (await companionsStale(item, latest.get(s.fileId)!))) s.stale = true;
      }
      return { list };
    },

    /**
     * A shared 3D file's conversion for whoever holds the share token (the viewer in share mode): the owner's latest
     * conversion of it, its GLB through a link of the share (checked on use: a cancelled share stops it). Nothing of the
     * owner's beyond the file the share reaches; the recipient converts nothing (never converted: status 3).
     */
    async sharedStatus(token: string | undefined, fileId: string, uid: string | undefined, lang: Language): Promise<Model3dStatus> {
      const hit = await shares.sharedFile(token, fileId, uid);
      if (!hit) throw appError('item.notFound');
      if (hit.row.freeze === 1) throw appError('file.frozen');
      const r = (await repo.latestOfSources(hit.ownerUid, [fileId])).get(fileId);
      const link = (lod: boolean) => downloadLink(deps, { k: 'glb-share', s: hit.shareId, f: fileId, ...(hit.group && uid ? { u: uid } : {}), ...(lod ? { l: 1 } : {}) }).url;
      return present(fileId, hit.row.name, r, hit.row, lang, link);
    },

    /** list3D: the caller's 3D conversions (the latest of each source), newest first, for the task panel's 3D tab. */
    async list(uid: string, page: number, pageSize: number, lang: Language): Promise<{ list: Model3dTask[]; total: number }> {
      const { rows, total } = await repo.latestOfUser(uid, (page - 1) * pageSize, pageSize);
      const live = new Map((await files.repo.findOwned(uid, [...new Set(rows.map((r) => r.source_id))])).map((r) => [r.id, r]));
      const list = rows.map((r) => {
        const item = live.get(r.source_id);
        return {
          taskId: r.id, fileId: r.source_id, name: item?.name ?? r.source_name, transformStatus: r.state, progress: Number(r.progress), stage: r.stage,
          code: r.error, msg: message(r.error, r.error_args, lang), fileExists: !!item && item.blob_md5 === r.source_md5,
          createTimestamp: Number(r.created_at), finishTimestamp: r.finished_at === null ? null : Number(r.finished_at),
        };
      });
      return { list, total };
    },

    /** Conversions still "converting" whose job is gone or failed end as failed: a source is never blocked for good. */
    async sweepStranded(idleMs = 60_000): Promise<number> {
      let ended = 0;
      for (const c of await repo.stranded(Date.now() - idleMs)) {
        const st = await deps.queue.status(`model3d-${c.id}`);
        if (st.state !== 'failed' && st.state !== 'unknown') continue;
        await fail(c, 'model3d.failed', `job ${st.state}${st.error ? `: ${st.error}` : ''}`);
        ended++;
      }
      return ended;
    },

    /** The job (`model3d.run`): converts in a capped worker thread, stores the GLB and the thumbnail, ends the conversion. */
    async run(id: string, ctx: Pick<JobContext, 'attempt' | 'progress'>): Promise<unknown> {
      const c = await repo.byId(id);
      if (!c || c.state !== TransformStatus.IN_TRANSFORM) return { skipped: 'not running' };
      // a process killed during the last attempt: the queue hands the job out once more; it ends here, cleanly
      if (ctx.attempt > MODEL3D_ATTEMPTS) return fail(c, 'model3d.failed', 'the conversion was interrupted twice');
      const src = await files.repo.findOne(c.uid, c.source_id);
      if (!src || src.blob_md5 !== c.source_md5) return fail(c, 'model3d.failed', 'the source file is gone or changed');
      const thumbkey = thumbkeyOf(c.source_md5, 'drawing');
      const drawing = isDrawing(src.name);
      if (Number(src.size) === 0) return fail(c, 'model3d.empty', '0 bytes');
      if (Number(src.size) > cfg.model3dMaxInputMb * 1024 * 1024) return fail(c, 'model3d.tooLarge', `${src.size} bytes, more than ${cfg.model3dMaxInputMb} MB`);
      await repo.setProgress(c.id, 5, 'read');
      const bytes = await readAll(await deps.storage.get(blobKey(c.source_md5)));
      let extraFiles: Map<string, Uint8Array>;
      let refs: Array<[string, string | null]>;
      try {
        ({ found: extraFiles, refs } = await companionsOf(src, bytes, cfg.model3dMaxInputMb * 1024 * 1024));
      } catch (e) {
        const { code, args } = failureOf(e);
        return fail(c, code, e instanceof Error ? e.message : String(e), args);
      }
      const companions = digestOf(extraFiles);
      const key = glbKey(c.source_md5, companions);
      // the same bytes (with the same files beside them) converted before (a re-upload, a copy, a killed process
      // after the store): the GLB is reused
      const kept = await repo.doneWith(c.source_md5, companions);
      const keptLod = kept ? !!(JSON.parse(kept) as { lod?: unknown }).lod : false;
      if (kept && (await deps.storage.exists(key)) && (!keptLod || (await deps.storage.exists(lodKey(c.source_md5, companions))))) {
        return finishOk(c, JSON.parse(kept), !drawing && (await deps.storage.exists(thumbnailStorageKey(thumbkey))) ? thumbkey : null, companions, refs);
      }
      // the worker's stages (parse, import, document, thumbnail, compress, write) fill 10–90 % of the bar, on the row the
      // panel polls and on the job; written a few times a second at most
      const progress = throttledProgress(async (percent, stage) => {
        await repo.setProgress(c.id, percent, stage);
        await ctx.progress(percent);
      }, PROGRESS_WRITE_MS);
      progress.report(WORKER_SPAN[0], 'parse');
      let out: ConvertResult;
      try {
        out = await convertInWorker(bytes, src.name, {
          extraFiles,
          limits: {
            maxInputBytes: cfg.model3dMaxInputMb * 1024 * 1024, maxTriangles: cfg.model3dMaxTriangles, maxVertices: cfg.model3dMaxVertices,
            lodAboveTriangles: cfg.model3dLodAboveTriangles, lodTargetTriangles: cfg.model3dLodTargetTriangles,
          },
          thumbnail: drawing ? undefined : THUMBNAIL_PX,
          maxOldGenerationSizeMb: cfg.model3dMaxHeapMb,
          timeoutMs: cfg.model3dTimeoutMs,
          onProgress: (p) => progress.report(Math.round(WORKER_SPAN[0] + ((WORKER_SPAN[1] - WORKER_SPAN[0]) * p.percent) / 100), p.stage),
        });
      } catch (e) {
        await progress.stop();
        const { code, args } = failureOf(e);
        return fail(c, code, e instanceof Error ? `${e instanceof Model3dError ? e.kind : e.name}: ${e.message}` : String(e), args);
      }
      await progress.stop();
      await repo.setProgress(c.id, 90, 'store');
      // the drivers' put is atomic (a temp file renamed, or one S3 PUT): the viewer never reads half a GLB
      // the coarse level first: a GLB stored is a model the viewer may open, and then its coarse level is there too
      if (out.lod) await deps.storage.put(lodKey(c.source_md5, companions), Buffer.from(out.lod), { size: out.lod.byteLength, contentType: 'model/gltf-binary' });
      await deps.storage.put(key, Buffer.from(out.glb), { size: out.glb.byteLength, contentType: 'model/gltf-binary' });
      let shown: string | null = null;
      if (out.thumbnail) {
        await deps.storage.put(thumbnailStorageKey(thumbkey), Buffer.from(out.thumbnail), { size: out.thumbnail.byteLength, contentType: 'image/png' });
        shown = thumbkey;
      }
      return finishOk(c, out.stats, shown, companions, refs);
    },
  };
  return service;
}

export type Model3dService = ReturnType<typeof createModel3dService>;
