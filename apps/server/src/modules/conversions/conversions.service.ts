import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pdfTargets, writableTargets, type ConvertOptions, type ConvertTarget, type DxfVersion, type PaperName } from '@cadcloud/cad';
import { CONVERSION_VERSIONS, CONVERTIBLE_DRAWING_TYPES, CONVERTIBLE_PDF_TYPES, ERRORS, TransformStatus, type Conversion, type ConversionOptions, type ErrorCode, type TransformBatchRequest } from '@cadcloud/contracts';
import { serverMessage, type Language } from '@cadcloud/i18n';
import type { AppDeps } from '../../app.deps.ts';
import { appError, AppError } from '../../infra/http/app-error.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import type { JobContext } from '../../infra/queue/queue.types.ts';
import { createFilesService } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { stemOf } from '../files/item-names.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import { prewarmAfterUpload } from '../drawings/drawings.jobs.ts';
import type { DrawingFonts } from '../drawings/drawings.service.ts';
import { createPictureFinder } from '../drawings/picture-finder.ts';
import type { PictureFileLookup } from '../drawings/capped-worker.ts';
import { ConversionRunError, type ConversionRunner } from './conversion-runner.ts';
import { createConversionsRepository, type ConversionRow } from './conversions.repository.ts';

export const CONVERSION_RUN_JOB = 'conversion.run';
/** Ends conversions whose job the queue gave up on (BullMQ fails a job that stalled twice without running it again). */
export const CONVERSION_SWEEP_JOB = 'conversion.sweep';
/** A conversion whose worker died runs once more (issue 17: "retried once on a crash"); the queue's attempts. */
export const CONVERSION_ATTEMPTS = 2;
/** The drawing's content is to blame for these: counted for the repeated-failure message. */
const CONTENT_FAILURES: ErrorCode[] = ['conversion.failed', 'conversion.repeatedFailure'];

/** Who asks: the signed-in user (membership decides the monthly allowance). */
export interface ConversionActor {
  id: string;
  freeze: number;
  vip_type?: number;
}

/** The first instant of the current calendar month (UTC): the free allowance counts from here. */
export function monthStart(now = Date.now()): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}

/** The request's options as the engine reads them (convertDrawing in packages/cad/src/convert). */
export function engineOptions(o: ConversionOptions, version: string | null): ConvertOptions {
  const layouts = o.layouts === 'all' ? 'all' : Array.isArray(o.layouts) ? o.layouts : undefined;
  return {
    layouts,
    version: (version ?? undefined) as DxfVersion | undefined,
    // the contract's names are identifier-safe (ANSI_A); the engine names ANSI papers as printed (ANSI A)
    paper: o.paper && (o.paper.replace('_', ' ') as 'fit' | PaperName),
    width: o.width,
    height: o.height,
    background: o.background,
    ...(o.area ? { area: o.area } : {}),
    // a PDF source: which pages, each a layout or all stacked in model space, and at what scale
    ...(o.pages || o.stack || o.calibrate || o.scale ? { pdf: { pages: o.pages, stack: o.stack, calibrate: o.calibrate, ...(o.scale ? { scale: o.scale } : {}) } } : {}),
  };
}

/** Why a PDF did not convert, as the engine's PdfImportError names it in the failure's detail (issue 17 part 5). */
const PDF_REASON = /\bpdf\.(empty|invalid|encrypted|noVectors|noSuchPage)\b/;

async function readAll(r: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of r) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

/**
 * The pictures a converted drawing's IMAGEs show, found as the viewer and thumbnails find them
 * (drawings/picture-finder.ts): by base name in the drawing owner's drive, the drawing's folder first; never anyone
 * else's. Pictures over the thumbnails' size limit are left out (the IMAGE keeps its frame), as there.
 */
function pictureLookup(deps: AppDeps, finder: ReturnType<typeof createPictureFinder>, src: ItemRow): PictureFileLookup {
  return async (_name, file) => {
    const row = await finder.find(src.uid, src.parent_id, file);
    if (!row || Number(row.size) > deps.config.thumbnailMaxPictureSize) return null;
    return readAll(await deps.storage.get(blobKey(row.blob_md5)));
  };
}

/**
 * Conversions (issue 17): who may convert what (own drawings, within the monthly allowance of free accounts), the
 * durable job that converts in a capped worker and places the result next to the source under the drive's name rules
 * and quota, and the states the source shows meanwhile (section 4: 0 converting, 1 done, 2 failed). A failed job leaves
 * the source as it was and makes no file.
 */
export function createConversionsService(deps: AppDeps, runner: ConversionRunner, fonts: DrawingFonts) {
  const repo = createConversionsRepository(deps.db);
  const files = createFilesService(deps);
  const quota = createQuotaService(deps);
  const membership = createMembershipService(deps);
  const blobs = createBlobsService(deps);
  const thumbnails = createThumbnailsService(deps);
  const pictureFinder = createPictureFinder(deps);

  function present(r: ConversionRow, lang: Language, result?: ItemRow): Conversion {
    const code = r.error as ErrorCode | null;
    return {
      taskId: r.id,
      fileId: r.source_id,
      sourceName: r.source_name,
      target: r.target as Conversion['target'],
      version: r.version,
      transformStatus: r.state,
      progress: Number(r.progress),
      stage: r.stage,
      resultFileId: result ? result.id : null,
      resultName: result ? result.name : null,
      code,
      msg: code && ERRORS[code] ? withReason(serverMessage(ERRORS[code].key, lang), r.detail, lang) : null,
      createTimestamp: Number(r.created_at),
      finishTimestamp: r.finished_at === null ? null : Number(r.finished_at),
    };
  }

  /** The live result files of these conversions (a result the user has deleted or binned is no link any more). */
  async function results(uid: string, rows: ConversionRow[]): Promise<Map<string, ItemRow>> {
    const ids = rows.map((r) => r.result_id).filter((x): x is string => !!x);
    return new Map((await files.repo.findOwned(uid, ids)).map((i) => [i.id, i]));
  }

  /** How many conversions a month the user may request: null when there is no limit (members, or the operator made it free). */
  async function allowanceOf(actor: ConversionActor): Promise<number | null> {
    return (await membership.may(actor.id, 'conversion')) ? null : deps.config.freeConversionsPerMonth;
  }

  /** The spec's message, and for a PDF the precise reason (encrypted, empty, not a PDF, only pictures) after it. */
  function withReason(msg: string, detail: string | null, lang: Language): string {
    const m = detail ? PDF_REASON.exec(detail) : null;
    if (!m) return msg;
    const reason = serverMessage(`conversion.pdf.${m[1]}`, lang);
    // a full-width bracket (zh) follows without a space
    return reason.startsWith('（') ? `${msg}${reason}` : `${msg} ${reason}`;
  }

  /** Drawings convert to every target; a PDF to the drawing targets only (pdfTargets). */
  function isConvertible(row: ItemRow, target: string): boolean {
    if (row.kind !== 1) return false;
    const type = row.type.toLowerCase();
    if ((CONVERTIBLE_DRAWING_TYPES as readonly string[]).includes(type)) return true;
    return (CONVERTIBLE_PDF_TYPES as readonly string[]).includes(type) && (pdfTargets() as string[]).includes(target);
  }

  /**
   * Admits the conversions of these sources in one drive write (files.service.ts `driveWrite`: the user's lock in
   * every process sharing the database): the month's count, the sources' state, the new rows and the sources marked
   * converting commit together. So parallel requests, from this server or another, never admit more than `free`, and a
   * rename, move, delete or new version queued on the same lock finds the source converting.
   */
  async function admit(actor: ConversionActor, ids: string[], free: number | null, target: ConvertTarget, version: string | null, options: ConversionOptions): Promise<ConversionRow[]> {
    try {
      return await files.driveWrite(actor.id, async (t) => {
        const rows = await files.repo.findOwned(actor.id, ids, {}, t);
        if (rows.length !== ids.length) throw appError('item.notFound');
        for (const r of rows) if (!isConvertible(r, target) || !r.blob_md5) throw appError('conversion.notDrawing');
        if (rows.some((r) => r.transform_status === TransformStatus.IN_TRANSFORM) || (await repo.runningOfSources(ids, t)).length) throw appError('conversion.inProgress');
        if (free !== null && (await repo.countSince(actor.id, monthStart(), t)) + rows.length > free) throw appError('conversion.monthlyLimit', [free]);
        const now = Date.now();
        const started: ConversionRow[] = [];
        for (const src of rows) {
          const row: ConversionRow = {
            id: newId(), uid: actor.id, source_id: src.id, source_name: src.name, source_md5: src.blob_md5 ?? '', target, version, options: JSON.stringify(options),
            state: TransformStatus.IN_TRANSFORM, progress: 0, stage: 'queued', result_id: null, error: null, detail: null, created_at: now, updated_at: now, finished_at: null,
          };
          await repo.insert(row, t);
          await files.repo.update(actor.id, src.id, { transform_status: TransformStatus.IN_TRANSFORM }, t);
          started.push(row);
        }
        return started;
      });
    } catch (e) {
      // the unique index on running conversions: another writer started one of these sources first
      if (isUniqueViolation(e)) throw appError('conversion.inProgress');
      throw e;
    }
  }

  /** The job of an admitted conversion, queued once its row committed; one the queue refuses ends failed at once (never "converting" for good). */
  async function enqueue(c: ConversionRow) {
    try {
      await deps.queue.enqueue(CONVERSION_RUN_JOB, { conversionId: c.id }, { jobId: `conversion-${c.id}`, attempts: CONVERSION_ATTEMPTS });
    } catch (e) {
      await fail(c, 'conversion.failed', `not queued: ${String(e)}`);
      throw e;
    }
  }

  /** A running conversion ends as failed; the source keeps its bytes and shows FAIL. Drawings that keep failing get the spec's repeated-failure message. */
  async function fail(c: ConversionRow, code: ErrorCode, detail: string | null) {
    let final = code;
    if (code === 'conversion.failed' && (await repo.failuresOf(c.uid, c.source_md5, CONTENT_FAILURES, c.id)) >= 1) final = 'conversion.repeatedFailure';
    if (!(await repo.finish(c.id, { state: 2, error: final, detail: detail?.slice(0, 500) ?? null }))) return;
    const src = await files.repo.findOne(c.uid, c.source_id);
    if (src) await files.repo.update(c.uid, src.id, { transform_status: TransformStatus.FAIL_TRANSFORM });
  }

  /**
   * Puts the converted bytes next to the source: quota first (refused cleanly when over), the bytes stored once per
   * md5, then the item appears under a free name ("plan (1).pdf"). The item's id is the conversion's, so a job that
   * is run again after its process died between the item and the conversion's end finds it instead of making two.
   */
  async function place(c: ConversionRow, src: ItemRow, out: { bytes: Buffer; ext: string }): Promise<ItemRow> {
    const md5 = createHash('md5').update(out.bytes).digest('hex');
    const size = out.bytes.byteLength;
    await quota.reserve(c.uid, size, 'conversion.noSpace');
    try {
      if (!(await blobs.find(md5))) {
        await deps.storage.put(blobKey(md5), out.bytes, { size, contentType: 'application/octet-stream' });
        await blobs.register(md5, size);
      }
      await blobs.addRef(md5);
      const now = Date.now();
      const name = `${stemOf(src.name, false)}.${out.ext}`;
      const row: ItemRow = {
        id: c.id, uid: c.uid, parent_id: src.parent_id, kind: 1, name, type: out.ext, size, blob_md5: md5, version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null,
        transform_status: TransformStatus.NO_TRANSFORM, browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null,
      };
      let placed: ItemRow;
      try {
        placed = await files.insertWithFreeName(row);
      } catch (e) {
        await blobs.release([md5]);
        throw e;
      }
      await thumbnails.afterUpload(placed).catch(() => undefined);
      await prewarmAfterUpload(deps, placed);
      return placed;
    } catch (e) {
      await quota.release(c.uid, size);
      throw e;
    }
  }

  const service = {
    /** The targets this server writes (the dialog offers only these) and the caller's allowance. */
    async targets(actor: ConversionActor) {
      const premium = await membership.may(actor.id, 'conversion');
      const free = deps.config.freeConversionsPerMonth;
      return {
        targets: writableTargets(),
        versions: [...CONVERSION_VERSIONS],
        // a PDF becomes a drawing (issue 17 part 5): DXF, and DWG once its writer lands
        pdfToDrawing: pdfTargets().length > 0,
        pdfTargets: pdfTargets(),
        freePerMonth: free,
        usedThisMonth: await repo.countSince(actor.id, monthStart()),
        premium,
      };
    },

    /** transformBatch: every file checked first (own, a drawing, not converting), then one conversion each. */
    async request(actor: ConversionActor, req: TransformBatchRequest & { options?: ConversionOptions }, lang: Language) {
      files.assertNotFrozen(actor);
      const ids = [...new Set(req.fileIds)];
      // another user's id answers as a missing file: nothing about it (name, existence) is told
      const rows = await files.repo.findOwned(actor.id, ids);
      if (rows.length !== ids.length) throw appError('item.notFound');
      if (!(writableTargets() as string[]).includes(req.target)) throw appError('conversion.targetUnavailable');
      for (const r of rows) if (!isConvertible(r, req.target) || !r.blob_md5) throw appError('conversion.notDrawing');
      // answered at once when plain from here; admit() checks all of it again under the user's lock
      if (rows.some((r) => r.transform_status === TransformStatus.IN_TRANSFORM) || (await repo.runningOfSources(ids)).length) throw appError('conversion.inProgress');
      const free = await allowanceOf(actor);
      if (free !== null && (await repo.countSince(actor.id, monthStart())) + rows.length > free) throw appError('conversion.monthlyLimit', [free]);
      const usage = await quota.usage(actor.id);
      if (usage.used + usage.reserved >= usage.total) throw appError('conversion.noSpace');
      const version = req.target === 'dxf' || req.target === 'dwg' ? (req.version ?? '2018') : null;
      const started = await admit(actor, ids, free, req.target as ConvertTarget, version, req.options ?? {});
      for (const c of started) await enqueue(c);
      return { list: started.map((c) => present(c, lang)) };
    },

    /** checkTaskStatusBatch: each file's latest conversion (3 when it was never converted). */
    async statusBatch(uid: string, fileIds: string[], lang: Language) {
      const ids = [...new Set(fileIds)];
      const latest = await repo.latestOfSources(uid, ids);
      const live = new Set((await files.repo.findOwned(uid, ids)).map((r) => r.id));
      // the caller's own sources (live, or converted before they were deleted); anything else is not told apart from missing
      if (ids.some((id) => !live.has(id) && !latest.has(id))) throw appError('item.notFound');
      const res = await results(uid, [...latest.values()]);
      return {
        list: ids.map((fileId) => {
          const c = latest.get(fileId);
          if (!c) return { fileId, transformStatus: TransformStatus.NO_TRANSFORM, progress: 0, stage: '', resultFileId: null, resultName: null, taskId: null, code: null, msg: null };
          const p = present(c, lang, c.result_id ? res.get(c.result_id) : undefined);
          return { fileId, transformStatus: p.transformStatus, progress: p.progress, stage: p.stage, resultFileId: p.resultFileId, resultName: p.resultName, taskId: p.taskId, code: p.code, msg: p.msg };
        }),
      };
    },

    /** /yun/transformer: the user's conversions, newest first. */
    async list(uid: string, page: number, pageSize: number, lang: Language) {
      const { rows, total } = await repo.page(uid, page, pageSize);
      const res = await results(uid, rows);
      return { list: rows.map((r) => present(r, lang, r.result_id ? res.get(r.result_id) : undefined)), total };
    },

    /** A failed conversion asked again: a new conversion of the same source and parameters (same checks and allowance). */
    async retry(actor: ConversionActor, taskId: string, lang: Language) {
      const c = await repo.ofUser(actor.id, taskId);
      if (!c) throw appError('item.notFound');
      if (c.state !== TransformStatus.FAIL_TRANSFORM) throw appError('conversion.notFailed');
      return service.request(actor, { fileIds: [c.source_id], target: c.target as ConvertTarget, version: (c.version ?? undefined) as TransformBatchRequest['version'], options: JSON.parse(c.options) }, lang);
    },

    /**
     * Conversions still "converting" whose job is gone or failed without ending them (a job that threw on its last
     * attempt, one BullMQ failed as stalled, a queue emptied by an operator) end as failed: a source is never
     * blocked for good. `idleMs`: only those without news for this long.
     */
    async sweepStranded(idleMs = 60_000): Promise<number> {
      let ended = 0;
      for (const c of await repo.stranded(Date.now() - idleMs)) {
        const st = await deps.queue.status(`conversion-${c.id}`);
        if (st.state !== 'failed' && st.state !== 'unknown') continue;
        await fail(c, 'conversion.failed', `job ${st.state}${st.error ? `: ${st.error}` : ''}`);
        ended++;
      }
      return ended;
    },

    /** The job (`conversion.run`): converts in the worker, places the result, ends the conversion. */
    async run(conversionId: string, ctx: Pick<JobContext, 'attempt' | 'progress'>): Promise<unknown> {
      const c = await repo.byId(conversionId);
      if (!c || c.state !== TransformStatus.IN_TRANSFORM) return { skipped: 'not running' };
      // a process killed during the last attempt: the queue hands the job out once more; it ends here, cleanly
      if (ctx.attempt > CONVERSION_ATTEMPTS) return fail(c, 'conversion.failed', 'the conversion was interrupted twice');
      // the process died after the file appeared and before the conversion ended: the file is the result
      const done = await files.repo.findOne(c.uid, c.id);
      if (done) return finishOk(c, done);
      const src = await files.repo.findOne(c.uid, c.source_id);
      if (!src || !src.blob_md5) return fail(c, 'conversion.failed', 'the source file is gone');
      const bytes = await readAll(await deps.storage.get(blobKey(src.blob_md5)));
      await repo.setProgress(c.id, 2, 'read');
      let lastWrite = 0;
      const onProgress = (percent: number, stage: string) => {
        // the database sees a step every second at most: the panel polls every 5 s
        const now = Date.now();
        if (now - lastWrite < 1000 && percent < 95) return;
        lastWrite = now;
        void repo.setProgress(c.id, Math.min(95, percent), stage).catch(() => undefined);
        void ctx.progress(Math.min(95, percent)).catch(() => undefined);
      };
      let out;
      try {
        out = await runner.run(bytes, src.name, c.target, engineOptions(JSON.parse(c.options), c.version), fonts.lookup(c.uid), onProgress, pictureLookup(deps, pictureFinder, src));
      } catch (e) {
        if (e instanceof ConversionRunError && e.kind === 'crash' && ctx.attempt < CONVERSION_ATTEMPTS) throw e; // the queue runs it once more
        const code: ErrorCode = e instanceof ConversionRunError && e.code === 'cad.targetUnavailable' ? 'conversion.targetUnavailable' : 'conversion.failed';
        const detail = e instanceof ConversionRunError ? `${e.kind}${e.code ? ` ${e.code}` : ''}: ${e.message}${e.detail ? ` (${e.detail})` : ''}` : String(e);
        return fail(c, code, detail);
      }
      await repo.setProgress(c.id, 96, 'store');
      let placed;
      try {
        placed = await place(c, src, out);
      } catch (e) {
        if (e instanceof AppError) return fail(c, e.code, e.message);
        throw e;
      }
      return finishOk(c, placed);
    },
  };

  async function finishOk(c: ConversionRow, placed: ItemRow) {
    if (await repo.finish(c.id, { state: 1, result_id: placed.id })) {
      const src = await files.repo.findOne(c.uid, c.source_id);
      if (src) await files.repo.update(c.uid, src.id, { transform_status: TransformStatus.SUCCESS_TRANSFORM });
    }
    return { resultId: placed.id, name: placed.name };
  }

  return service;
}

export type ConversionsService = ReturnType<typeof createConversionsService>;
