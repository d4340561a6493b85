import type { Readable } from 'node:stream';
import { ERRORS, TransformStatus, VipType, extensionOf, type ErrorCode, type Model3dStatus } from '@cadcloud/contracts';
import { serverMessage, type Language } from '@cadcloud/i18n';
import { convertInWorker, formatOf, Model3dError, type ConvertResult } from '@cadcloud/model3d';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import type { JobContext } from '../../infra/queue/queue.types.ts';
import { addDownloadGrant, downloadLink } from '../downloads/download-links.ts';
import { createFilesService } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { stemOf } from '../files/item-names.ts';
import { thumbkeyOf, thumbnailStorageKey } from '../thumbnails/thumbnails.keys.ts';
import { glbKey, lodKey } from './model3d.keys.ts';
import { createModel3dRepository, type Model3dRow } from './model3d.repository.ts';

export const MODEL3D_RUN_JOB = 'model3d.run';
/** Ends 3D conversions whose job the queue gave up on (as conversion.sweep does for drawings). */
export const MODEL3D_SWEEP_JOB = 'model3d.sweep';
/** A conversion whose process died runs once more; the queue's attempts. */
export const MODEL3D_ATTEMPTS = 2;
/** the thumbnail's size (pixels square) */
const THUMBNAIL_PX = 256;

/** Who asks: the signed-in user (the super membership decides the trials). */
export interface Model3dActor {
  id: string;
  vip_type?: number;
}

async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/** Revit keeps its geometry in a closed format: no open reader exists, the user is told to export IFC. */
const isRevit = (name: string) => extensionOf(name) === 'rvt';

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
 * converts nothing of the sharer's (own file ids only); viewing a shared 3D model is left for later.
 */
export function createModel3dService(deps: AppDeps) {
  const repo = createModel3dRepository(deps.db);
  const files = createFilesService(deps);
  const cfg = deps.config;

  async function vipOf(actor: Model3dActor): Promise<number> {
    return actor.vip_type ?? (await deps.db.selectFrom('users').select('vip_type').where('id', '=', actor.id).executeTakeFirst())?.vip_type ?? 0;
  }

  /** How many trials remain: null when unlimited (super membership, or the operator made 3D conversion free). */
  async function remainingOf(actor: Model3dActor, t = deps.db): Promise<{ remaining: number | null; superMember: boolean }> {
    const superMember = (await vipOf(actor)) >= VipType.SUPER;
    if (superMember || cfg.free3dTrials === null) return { remaining: null, superMember };
    return { remaining: Math.max(0, cfg.free3dTrials - (await repo.trialsUsed(actor.id, t))), superMember };
  }

  /** the failure's message in the caller's language, its numbers written as that language writes them */
  function message(code: string | null, args: string | null | undefined, lang: Language): string | null {
    const e = code ? ERRORS[code as ErrorCode] : undefined;
    const nums = args ? (JSON.parse(args) as number[]).map((n) => n.toLocaleString(lang)) : undefined;
    return e ? serverMessage(e.key, lang, nums) : null;
  }

  function present(fileId: string, name: string, r: Model3dRow | undefined, item: ItemRow | undefined, lang: Language): Model3dStatus {
    if (!r) return { fileId, name, transformStatus: TransformStatus.NO_TRANSFORM, progress: 0, stage: '', code: null, msg: null, glbUrl: null, lodUrl: null, stats: null };
    const done = r.state === TransformStatus.SUCCESS_TRANSFORM;
    // the link only while the file is still the user's with the bytes that were converted
    const linked = done && item && item.blob_md5 === r.source_md5;
    const stats = done && r.stats ? JSON.parse(r.stats) : null;
    const glbUrl = linked ? downloadLink(deps, { k: 'glb', u: r.uid, f: item.id, b: r.source_md5 }).url : null;
    // the coarse level's link is the GLB's grant with `l`: the same check, the other key
    const lodUrl = linked && stats?.lod ? downloadLink(deps, { k: 'glb', u: r.uid, f: item.id, b: r.source_md5, l: 1 }).url : null;
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
            trial: remaining === null ? 0 : 1, stats: null, error: null, error_args: null, detail: null, created_at: now, updated_at: now, finished_at: null,
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

  async function finishOk(c: Model3dRow, stats: unknown, thumbkey: string | null) {
    const running = await repo.byId(c.id);
    if (running?.state !== TransformStatus.IN_TRANSFORM) return { done: c.id, stats, ended: false };
    const src = await files.repo.findOne(c.uid, c.source_id);
    // the thumbnail shows on the file while it keeps the converted bytes
    if (src) await files.repo.update(c.uid, src.id, { transform_status: TransformStatus.SUCCESS_TRANSFORM, ...(thumbkey && src.blob_md5 === c.source_md5 ? { thumbkey } : {}) });
    await repo.finish(c.id, { state: 1, stats: JSON.stringify(stats) });
    return { done: c.id, stats };
  }

  const service = {
    /** The download link's check, registered once per app (routes): the file still the user's, with the converted bytes. */
    registerGrants() {
      addDownloadGrant(deps, 'glb', async (g) => {
        const row = await files.repo.findOne(String(g.u), String(g.f));
        if (!row || row.kind !== 1 || row.blob_md5 !== String(g.b)) throw appError('download.linkExpired');
        const lod = g.l === 1;
        const key = lod ? lodKey(row.blob_md5) : glbKey(row.blob_md5);
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
      // converted already (same bytes, GLB kept): nothing to do
      const converted = async (r: ItemRow) => {
        const l = latest.get(r.id);
        return !!l && l.state === TransformStatus.SUCCESS_TRANSFORM && l.source_md5 === r.blob_md5 && (await deps.storage.exists(glbKey(r.blob_md5!)));
      };
      const todo: string[] = [];
      for (const r of rows) if (!(await converted(r))) todo.push(r.id);
      if (req.isTransForm !== false && todo.length) {
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

    /** checkTransformSuplus3D: how many conversions the caller has left. */
    remaining: (actor: Model3dActor) => remainingOf(actor),

    /** checkTaskStatus3D / checkTaskStatusBatch3D: each file's latest conversion (3 when never converted). */
    async statusBatch(uid: string, fileIds: string[], lang: Language) {
      const ids = [...new Set(fileIds)];
      const latest = await repo.latestOfSources(uid, ids);
      const live = new Map((await files.repo.findOwned(uid, ids)).map((r) => [r.id, r]));
      // the caller's own sources (live, or converted before they were deleted); anything else is not told apart from missing
      if (ids.some((id) => !live.has(id) && !latest.has(id))) throw appError('item.notFound');
      return { list: ids.map((id) => present(id, live.get(id)?.name ?? latest.get(id)!.source_name, latest.get(id), live.get(id), lang)) };
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
      const key = glbKey(c.source_md5);
      const thumbkey = thumbkeyOf(c.source_md5, 'drawing');
      // the same bytes converted before (a re-upload, a copy, a killed process after the store): the GLB is reused
      const kept = await deps.db.selectFrom('model3d_conversions').select('stats').where('source_md5', '=', c.source_md5).where('state', '=', 1).where('stats', 'is not', null).limit(1).executeTakeFirst();
      const keptLod = kept?.stats ? !!(JSON.parse(kept.stats) as { lod?: unknown }).lod : false;
      if (kept?.stats && (await deps.storage.exists(key)) && (!keptLod || (await deps.storage.exists(lodKey(c.source_md5))))) {
        return finishOk(c, JSON.parse(kept.stats), (await deps.storage.exists(thumbnailStorageKey(thumbkey))) ? thumbkey : null);
      }
      if (Number(src.size) === 0) return fail(c, 'model3d.empty', '0 bytes');
      if (Number(src.size) > cfg.model3dMaxInputMb * 1024 * 1024) return fail(c, 'model3d.tooLarge', `${src.size} bytes, more than ${cfg.model3dMaxInputMb} MB`);
      await repo.setProgress(c.id, 5, 'read');
      const bytes = await readAll(await deps.storage.get(blobKey(c.source_md5)));
      await repo.setProgress(c.id, 10, 'mesh');
      await ctx.progress(10).catch(() => undefined);
      let out: ConvertResult;
      try {
        out = await convertInWorker(bytes, src.name, {
          limits: {
            maxInputBytes: cfg.model3dMaxInputMb * 1024 * 1024, maxTriangles: cfg.model3dMaxTriangles, maxVertices: cfg.model3dMaxVertices,
            lodAboveTriangles: cfg.model3dLodAboveTriangles, lodTargetTriangles: cfg.model3dLodTargetTriangles,
          },
          thumbnail: THUMBNAIL_PX,
          maxOldGenerationSizeMb: cfg.model3dMaxHeapMb,
          timeoutMs: cfg.model3dTimeoutMs,
        });
      } catch (e) {
        const { code, args } = failureOf(e);
        return fail(c, code, e instanceof Error ? `${e instanceof Model3dError ? e.kind : e.name}: ${e.message}` : String(e), args);
      }
      await repo.setProgress(c.id, 90, 'store');
      // the drivers' put is atomic (a temp file renamed, or one S3 PUT): the viewer never reads half a GLB
      // the coarse level first: a GLB stored is a model the viewer may open, and then its coarse level is there too
      if (out.lod) await deps.storage.put(lodKey(c.source_md5), Buffer.from(out.lod), { size: out.lod.byteLength, contentType: 'model/gltf-binary' });
      await deps.storage.put(key, Buffer.from(out.glb), { size: out.glb.byteLength, contentType: 'model/gltf-binary' });
      let shown: string | null = null;
      if (out.thumbnail) {
        await deps.storage.put(thumbnailStorageKey(thumbkey), Buffer.from(out.thumbnail), { size: out.thumbnail.byteLength, contentType: 'image/png' });
        shown = thumbkey;
      }
      return finishOk(c, out.stats, shown);
    },
  };
  return service;
}

export type Model3dService = ReturnType<typeof createModel3dService>;
