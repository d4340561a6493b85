import { createHash } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import { TaskStatus, TaskType, extensionOf, isUnzipName, type ArchiveFormat, type ErrorCode } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import type { Database } from '../../infra/db/schema.ts';
import { appError, AppError } from '../../infra/http/app-error.ts';
import { newId } from '../../infra/db/ids.ts';
import { instanceTempName } from '../../infra/instance.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import type { JobContext } from '../../infra/queue/queue.types.ts';
import { createFilesService, type Actor } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { nextFreeName } from '../files/item-names.ts';
import { createQuotaRepository } from '../quota/quota.repository.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import { prewarmAfterUpload } from '../drawings/drawings.jobs.ts';
import { uploadsDir } from '../uploads/upload-temp.ts';
import { createZipTasksRepository, type ZipTaskRow } from '../downloads/zip-tasks.repository.ts';
import { NOT_UNZIP, presentTask } from '../downloads/downloads.service.ts';
import { ArchiveError, sniffArchiveFormat, type ArchiveListing } from './archive-reader.ts';
import { readerFor } from './archive-readers.ts';
import { cleanNamePart } from './archive-names.ts';
import type { LimitExceeded, ListedEntry, RefusedEntry, UnzipLimits } from './zip-listing.ts';
import { openPassword, sealPassword } from './unzip-password.ts';

export const UNZIP_RUN_JOB = 'unzip.run';
/** Ends decompressions whose job is gone (BullMQ fails a job that stalled too often without running it again). */
export const UNZIP_SWEEP_JOB = 'unzip.sweep';
/** A running task writes its progress at least this often while bytes flow; one silent for longer has lost its job. */
export const UNZIP_STRANDED_MS = 15 * 60_000;
/** A server killed during a decompression: the job runs again (resuming) this many times in all, then the task fails. */
export const UNZIP_ATTEMPTS = 3;
/** The task row's progress is written at most this often. */
const PROGRESS_EVERY_MS = 500;
const MAX_REPORTS = 200;
/** Entries up to this size are unpacked in memory; larger ones into a temp file. */
const SMALL_ENTRY_BYTES = 1 << 20;
/** Files being stored while the next entries unpack. */
const STORE_AHEAD = 4;

interface EntryBody {
  md5: string;
  size: number;
  buffer?: Buffer;
  file?: string;
  discard(): Promise<void>;
}

type Db = Kysely<Database>;
type Report = { name: string; action: 'renamed' | 'refused'; to: string | null; reason: string };

/** Why a task ends: the error code its `response` carries, with the message's arguments. */
class TaskEnd extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly args: (string | number)[] = [],
  ) {
    super(code);
  }
}

/**
 * Ids of what a task creates, derived from the task and the entry: a job run again after its server was killed finds
 * what it already stored (and skips it), and a failed or cancelled task finds exactly what to take away.
 */
export function derivedId(taskId: string, what: string): string {
  return createHash('sha256').update(`${taskId}\u0000${what}`).digest().subarray(0, 15).toString('base64url');
}

/** The folder an archive unpacks into: its name without the extension ("plans.tar.gz" → "plans"), valid for the drive. */
export function folderNameOf(archiveName: string): string {
  const stem = archiveName.replace(/\.(tar\.gz|tgz|tar\.bz2|tar\.xz)$/i, '').replace(/\.[^.]+$/, '');
  return cleanNamePart(stem || archiveName).name;
}

function limitError(l: LimitExceeded): TaskEnd {
  if (l.kind === 'entries') return new TaskEnd(TaskStatus.FAIL, 'unzip.tooManyEntries', [l.limit]);
  if (l.kind === 'ratio') return new TaskEnd(TaskStatus.FAIL, 'unzip.ratio', [l.limit]);
  return new TaskEnd(TaskStatus.FAIL, 'unzip.tooLarge', [formatBytes(l.limit)]);
}

function formatBytes(n: number): string {
  if (n >= 1024 ** 3) return `${+(n / 1024 ** 3).toFixed(1)} GB`;
  if (n >= 1024 ** 2) return `${+(n / 1024 ** 2).toFixed(1)} MB`;
  return `${n} B`;
}

/** A reader's failure as the task's end. */
function archiveEnd(e: ArchiveError): TaskEnd {
  switch (e.kind) {
    case 'not-archive':
      return new TaskEnd(TaskStatus.FAIL, 'unzip.notArchive');
    case 'damaged':
      return new TaskEnd(TaskStatus.FAIL, 'unzip.damaged');
    case 'password-required':
      return new TaskEnd(TaskStatus.PASSWORD_LOADING, 'unzip.passwordRequired');
    case 'wrong-password':
      return new TaskEnd(TaskStatus.PASSWORD_ERR, 'unzip.wrongPassword');
    case 'limit':
      // without a named limit: an entry gave more bytes than its header said (a lying header)
      return e.limit ? limitError(e.limit) : new TaskEnd(TaskStatus.FAIL, 'unzip.damaged');
    case 'unsupported':
      return new TaskEnd(TaskStatus.FAIL, 'unzip.failed');
    default:
      return new TaskEnd(TaskStatus.FAIL, 'unzip.failed');
  }
}

const REFUSAL: Record<RefusedEntry['reason'], Report['reason']> = { 'parent-path': 'parent-path', 'absolute-path': 'absolute-path', 'drive-letter': 'drive-letter', symlink: 'symlink', hardlink: 'hardlink', 'empty-name': 'empty-name' };

/**
 * Cloud decompression (issue 18; spec sections 4, 7, 8): which archives may be decompressed, the task (a zip_tasks
 * row of taskType 2) and the durable job that extracts an archive into a folder next to it. The listing is checked
 * first (limits, password); the quota for the listed total is reserved before anything is written; each file is
 * hashed into a temp file, stored once per md5 through the storage driver (temp then rename), and only then appears as
 * an item. A task that fails or is cancelled takes away everything it made and gives the quota back.
 */
export function createUnzipService(deps: AppDeps) {
  const files = createFilesService(deps);
  const membership = createMembershipService(deps);
  const tasks = createZipTasksRepository(deps.db);
  const blobs = createBlobsService(deps);
  const thumbnails = createThumbnailsService(deps);
  const limits = (): UnzipLimits => ({ maxEntries: deps.config.unzipMaxEntries, maxTotalBytes: deps.config.unzipMaxTotalBytes, maxRatio: deps.config.unzipMaxRatio });
  const tempDir = uploadsDir(deps.config.dataDir);

  /** The first bytes of a stored file (the format is told by them, not the name). */
  async function headOf(md5: string): Promise<Uint8Array> {
    const parts: Buffer[] = [];
    for await (const c of await deps.storage.get(blobKey(md5), { start: 0, end: 511 })) parts.push(c as Buffer);
    return new Uint8Array(Buffer.concat(parts).subarray(0, 512));
  }

  /**
   * The user's own live archive: named as one (isUnzipName) or in an archive format whatever its name. Another user's
   * file answers as missing. `strict`: bytes in no archive format are refused now (detect); otherwise the task says so.
   */
  async function archiveOf(uid: string, fileId: string, strict: boolean): Promise<{ row: ItemRow; format: ArchiveFormat | null }> {
    const row = await files.repo.findOne(uid, fileId);
    if (!row || row.kind !== 1 || !row.blob_md5) throw appError('item.notFound');
    const format = sniffArchiveFormat(await headOf(row.blob_md5)) ?? null;
    if (!format && (strict || !isUnzipName(row.name))) throw appError('unzip.notArchive');
    return { row, format };
  }

  /**
   * The archive as a local file: the stored object itself on local disk, a temp copy (bounded by the size limit) for
   * S3. `done()` removes the copy.
   */
  async function localCopy(row: ItemRow): Promise<{ file: string; done(): Promise<void> }> {
    const key = blobKey(row.blob_md5!);
    if (deps.storage.localPath) return { file: deps.storage.localPath(key), done: async () => undefined };
    if (Number(row.size) > limits().maxTotalBytes) throw new TaskEnd(TaskStatus.FAIL, 'unzip.tooLarge', [formatBytes(limits().maxTotalBytes)]);
    await fsp.mkdir(tempDir, { recursive: true });
    const file = path.join(tempDir, instanceTempName('.part', 'unzip-src'));
    try {
      await pipeline(await deps.storage.get(key), createWriteStream(file, { highWaterMark: 1 << 20 }));
    } catch (e) {
      await fsp.rm(file, { force: true });
      throw e;
    }
    return { file, done: () => fsp.rm(file, { force: true }) };
  }

  async function sameNameFolder(uid: string, parentId: string, name: string, t?: Db) {
    return files.repo.findByName(uid, parentId, name, 0, t);
  }

  async function renamedFolderName(uid: string, parentId: string, name: string, t?: Db) {
    return nextFreeName(name, await files.repo.namesLike(uid, parentId, name, t), true);
  }

  async function enqueue(taskId: string) {
    // a new job id each run: a task waiting for a password is run again by a new job once the password comes
    await deps.queue.enqueue(UNZIP_RUN_JOB, { taskId }, { jobId: `unzip-${taskId}-${Date.now().toString(36)}`, attempts: UNZIP_ATTEMPTS });
  }

  /** Ids of the files a task made: one per file entry, in the archive's order. */
  function fileIdsOf(task: ZipTaskRow): string[] {
    return Array.from({ length: Number(task.entries_total) }, (_, i) => derivedId(task.id, `f:${i}`));
  }

  /**
   * Takes away what a task made (its folder and everything in it) and gives back the quota it held, with the task's
   * end written in the same drive write: used storage is what it was before the task. Files the user put into that
   * folder meanwhile go too, and their storage with them.
   */
  async function undo(task: ZipTaskRow, end: (t: Db) => Promise<void>): Promise<void> {
    const released: (string | null)[] = [];
    await files.driveWrite(task.uid, async (t) => {
      const cur = await t.selectFrom('zip_tasks').selectAll().where('id', '=', task.id).executeTakeFirst();
      const root = derivedId(task.id, 'root');
      const rootRow = await files.repo.findOne(task.uid, root, t);
      let extra = 0;
      if (rootRow) {
        const tree = await files.repo.subtree(task.uid, [root], {}, t);
        const mine = new Set(cur ? fileIdsOf(cur) : []);
        for (const r of tree) if (r.kind === 1 && r.private_type === '1' && !mine.has(r.id)) extra += Number(r.size);
        const ids = [...tree.map((r) => r.id), root];
        for (let i = 0; i < ids.length; i += 500) await files.repo.deleteRows(task.uid, ids.slice(i, i + 500), t);
        released.push(...tree.filter((r) => r.kind === 1).map((r) => r.blob_md5));
      }
      const held = Number(cur?.reserved ?? 0) + extra;
      if (held > 0) await createQuotaRepository(t).release(task.uid, held);
      await end(t);
    });
    if (released.length) await blobs.release(released);
  }

  async function endTask(task: ZipTaskRow, e: TaskEnd) {
    const patch = { status: e.status, error: e.code, password_enc: e.status === TaskStatus.FAIL ? null : task.password_enc, reserved: 0, progress: 0, reports: mergeArgs(task.reports, e.args) };
    if (e.status === TaskStatus.FAIL) {
      await undo(task, (t) => tasks.update(task.id, { ...patch, folder_id: null, entries_done: 0, bytes_done: 0 }, t));
    } else {
      // waiting for a password: nothing was written yet (the check comes before any reservation)
      await tasks.update(task.id, patch);
    }
  }

  /** The message's arguments ride with the reports as an `{args}` item (presentTask answers them as responseArgs). */
  function mergeArgs(reports: string | null, args: (string | number)[]) {
    const list = reports ? (JSON.parse(reports) as unknown[]).filter((r: unknown) => !(r && typeof r === 'object' && 'args' in r)) : [];
    if (args.length) list.push({ args: args.map(String) });
    return JSON.stringify(list);
  }

  const present = presentTask;

  /**
   * Rights (issue 18 part 5): with UNZIP_MEMBERS_ONLY the operator keeps decompression for members (vip), as
   * conversion's allowance does (conversions.service.ts allowanceOf); by default everyone may decompress.
   */
  async function assertMayUnzip(uid: string) {
    // the rights model answers: open unless UNZIP_MEMBERS_ONLY, else a membership (or RIGHTS_OPEN_TO_ALL=unzip)
    if (!(await membership.may(uid, 'unzip'))) throw appError('unzip.membersOnly');
  }

  const service = {
    present,

    /** detectUnzip: the archive's format, the same-name folder, whether a password is needed, entries and size. */
    async detect(uid: string, fileId: string, language?: string) {
      await assertMayUnzip(uid);
      const { row, format } = await archiveOf(uid, fileId, true);
      const folderName = folderNameOf(row.name);
      const same = await sameNameFolder(uid, row.parent_id, folderName);
      const open = await tasks.findUnfinishedUnzip(uid, row.id);
      let listing: ArchiveListing | undefined;
      let needPassword = false;
      let local: Awaited<ReturnType<typeof localCopy>> | undefined;
      try {
        local = await localCopy(row);
        listing = await readerFor(format!, { tempDir }).list(local.file, { limits: limits(), language });
        needPassword = listing.encrypted;
      } catch (e) {
        if (e instanceof TaskEnd) throw appError(e.code, e.args);
        if (!(e instanceof ArchiveError)) throw e;
        if (e.kind === 'password-required') needPassword = true;
        else {
          const end = archiveEnd(e);
          throw appError(end.code, end.args);
        }
      } finally {
        await local?.done();
      }
      if (listing?.limitExceeded) {
        const end = limitError(listing.limitExceeded);
        throw appError(end.code, end.args);
      }
      return {
        format: format!,
        hasRepeat: !!same,
        folderId: same?.id ?? null,
        folderName,
        newFolderName: same ? await renamedFolderName(uid, row.parent_id, folderName) : folderName,
        needPassword,
        entryCount: listing ? listing.entries.length : 0,
        totalSize: listing ? listing.entries.reduce((a, e) => a + (e.directory ? 0 : e.uncompressedSize), 0) : 0,
        taskId: open?.id ?? null,
      };
    },

    /** unzipHasPassword: whether the password opens the archive; nothing is extracted. */
    async hasPassword(uid: string, fileId: string, password: string) {
      await assertMayUnzip(uid);
      const { row, format } = await archiveOf(uid, fileId, true);
      const local = await localCopy(row).catch((e) => {
        if (e instanceof TaskEnd) throw appError(e.code, e.args);
        throw e;
      });
      try {
        return { correct: await readerFor(format!, { tempDir }).checkPassword(local.file, password) };
      } catch (e) {
        if (!(e instanceof ArchiveError)) throw e;
        const end = archiveEnd(e);
        throw appError(end.code, end.args);
      } finally {
        await local.done();
      }
    },

    /**
     * unzip: queues the decompression of the archive into a folder next to it, or gives the password to its task
     * waiting for one. One unfinished task per archive ('Already in the decompression queue').
     */
    async request(actor: Actor, o: { fileId: string; password?: string; mode?: 'new' }, language?: string) {
      files.assertNotFrozen(actor);
      await assertMayUnzip(actor.id);
      const { row, format } = await archiveOf(actor.id, o.fileId, false);
      const folderName = folderNameOf(row.name);
      const sealed = o.password !== undefined ? sealPassword(deps.config.dataDir, o.password) : null;
      const { task, run } = await files.driveWrite(actor.id, async (t) => {
        const open = await tasks.findUnfinishedUnzip(actor.id, row.id, t);
        if (open) {
          const waiting = open.status === TaskStatus.PASSWORD_LOADING || open.status === TaskStatus.PASSWORD_ERR;
          if (!waiting) throw appError('unzip.alreadyQueued');
          if (o.password === undefined) throw appError('unzip.passwordRequired');
          const patch = { status: TaskStatus.BEFORE, error: null, password_enc: sealed };
          await tasks.update(open.id, patch, t);
          return { task: { ...open, ...patch }, run: true };
        }
        if (!o.mode && (await sameNameFolder(actor.id, row.parent_id, folderName, t))) throw appError('unzip.folderExists');
        const now = Date.now();
        const task: ZipTaskRow = {
          ...NOT_UNZIP, id: newId(), uid: actor.id, task_type: TaskType.UNZIP, status: TaskStatus.BEFORE, request_key: `unzip:${row.id}`, name: row.name, progress: 0, result_key: null, result_size: null, error: null, created_at: now, updated_at: now,
          archive_id: row.id, unzip_mode: o.mode ?? null, format, password_enc: sealed, names_language: language?.slice(0, 35) ?? null,
        };
        await tasks.insert(task, t);
        return { task, run: true };
      });
      if (run) await enqueue(task.id);
      return present(task);
    },

    /**
     * zip/task/cancel of a decompression: the task goes, and with it everything it extracted (a cancelled
     * decompression leaves no part of the archive behind, so the drive never shows half an archive; the quota is as
     * before). A running extraction notices at its next file and stops.
     */
    async cancel(uid: string, taskId: string) {
      const t = await tasks.find(uid, taskId);
      if (!t) throw appError('item.notFound');
      await undo(t, async (db) => {
        await db.deleteFrom('zip_tasks').where('uid', '=', uid).where('id', '=', taskId).execute();
      });
      return { cancelled: true };
    },

    /**
     * Tasks no job will end: unpacking without news for `idleMs` (their job died for good) fail, taking their files
     * and quota back, and waiting ones whose job was lost are queued again. A user's decompressions wait for the
     * running one, so a stranded one would block them all.
     */
    async sweepStranded(idleMs = UNZIP_STRANDED_MS): Promise<{ failed: number; requeued: number }> {
      const old = await deps.db.selectFrom('zip_tasks').selectAll().where('task_type', '=', TaskType.UNZIP).where('status', 'in', [TaskStatus.BEFORE, TaskStatus.IN]).where('updated_at', '<', Date.now() - idleMs).execute();
      let failed = 0;
      let requeued = 0;
      for (const t of old) {
        if (t.status === TaskStatus.IN) {
          await endTask(t, new TaskEnd(TaskStatus.FAIL, 'unzip.failed'));
          failed++;
        } else {
          await tasks.update(t.id, {});
          await enqueue(t.id);
          requeued++;
        }
      }
      return { failed, requeued };
    },

    /** The job (`unzip.run`). 'later': another decompression of this user runs; the job comes back a moment later. */
    async run(taskId: string, ctx: Pick<JobContext, 'attempt' | 'progress'>): Promise<'done' | 'later' | 'gone' | 'ended'> {
      let task = await tasks.findById(taskId);
      if (!task || task.task_type !== TaskType.UNZIP) return 'gone';
      if (task.status !== TaskStatus.BEFORE && task.status !== TaskStatus.IN) return 'gone';
      if (task.status === TaskStatus.BEFORE && !(await tasks.tryStart(task.uid, task.id, TaskType.UNZIP))) {
        // waiting its turn is news too: the sweep takes only tasks no job looks after
        await tasks.update(task.id, {});
        return 'later';
      }
      task = (await tasks.findById(taskId))!;
      if (!task) return 'gone';
      // killed during every attempt: ends cleanly instead of being stuck "unpacking"
      if (ctx.attempt > UNZIP_ATTEMPTS) {
        await endTask(task, new TaskEnd(TaskStatus.FAIL, 'unzip.failed'));
        return 'ended';
      }
      try {
        await extract(task, ctx);
        return 'done';
      } catch (e) {
        const current = await tasks.findById(taskId);
        // cancelled: the cancel took everything away already
        if (!current) return 'gone';
        if (e instanceof TaskEnd) {
          await endTask(current, e);
          return 'ended';
        }
        if (e instanceof AppError) {
          await endTask(current, new TaskEnd(TaskStatus.FAIL, e.code, e.args as (string | number)[]));
          return 'ended';
        }
        // anything else (storage down, the process being stopped): the queue runs the job again, which resumes
        throw e;
      }
    },
  };

  /** Extracts a task's archive: resumes where a killed run stopped (files already there are skipped). */
  async function extract(task: ZipTaskRow, ctx: Pick<JobContext, 'progress'>) {
    const uid = task.uid;
    const archive = await files.repo.findOne(uid, task.archive_id ?? '');
    if (!archive || archive.kind !== 1 || !archive.blob_md5) throw new TaskEnd(TaskStatus.FAIL, 'item.notFound');
    const lim = limits();
    const local = await localCopy(archive);
    try {
      const head = new Uint8Array(512);
      const fh = await fsp.open(local.file, 'r');
      const { bytesRead } = await fh.read(head, 0, 512, 0).finally(() => fh.close());
      const format = sniffArchiveFormat(head.subarray(0, bytesRead));
      if (!format) throw new TaskEnd(TaskStatus.FAIL, 'unzip.notArchive');
      const password = openPassword(deps.config.dataDir, task.password_enc);
      let reader;
      let listing: ArchiveListing;
      try {
        reader = readerFor(format, { tempDir });
        listing = await reader.list(local.file, { password, limits: lim, language: task.names_language ?? undefined });
        if (listing.limitExceeded) throw limitError(listing.limitExceeded);
        if (listing.encrypted) {
          if (password === undefined) throw new TaskEnd(TaskStatus.PASSWORD_LOADING, 'unzip.passwordRequired');
          if (!(await reader.checkPassword(local.file, password))) throw new TaskEnd(TaskStatus.PASSWORD_ERR, 'unzip.wrongPassword');
        }
      } catch (e) {
        if (e instanceof ArchiveError) throw archiveEnd(e);
        throw e;
      }
      const fileEntries = listing.entries.filter((e) => !e.directory);
      const bytesTotal = fileEntries.reduce((a, e) => a + e.uncompressedSize, 0);
      const reports: Report[] = listing.refused.map((r) => ({ name: r.originalName, action: 'refused', to: null, reason: REFUSAL[r.reason] }));
      const report = (r: Report) => {
        if (reports.length < MAX_REPORTS) reports.push(r);
      };

      // the quota for the whole listed size and the folder, in one drive write (a restarted run finds both)
      const rootId = derivedId(task.id, 'root');
      await files.driveWrite(uid, async (t) => {
        const cur = await t.selectFrom('zip_tasks').selectAll().where('id', '=', task.id).executeTakeFirst();
        if (!cur || cur.status !== TaskStatus.IN) throw new ArchiveError('cancelled');
        let reserved = Number(cur.reserved);
        if (reserved === 0 && bytesTotal > 0) {
          if (!(await createQuotaRepository(t).tryReserve(uid, bytesTotal))) throw new TaskEnd(TaskStatus.FAIL, 'upload.noSpace');
          reserved = bytesTotal;
        }
        if (!(await files.repo.findOne(uid, rootId, t))) {
          await files.requireFolder(uid, archive.parent_id, t);
          let name = folderNameOf(archive.name);
          if (await files.repo.findByName(uid, archive.parent_id, name, undefined, t)) {
            if (task.unzip_mode !== 'new' && (await sameNameFolder(uid, archive.parent_id, name, t))) throw new TaskEnd(TaskStatus.FAIL, 'unzip.folderExists');
            name = await renamedFolderName(uid, archive.parent_id, name, t);
          }
          await files.assertRoomBelow(uid, archive.parent_id, 1, t);
          await files.repo.insert(folderRow(uid, rootId, archive.parent_id, name), t);
        }
        await tasks.update(task.id, { reserved, folder_id: rootId, format, entries_total: fileEntries.length, bytes_total: bytesTotal }, t);
        return reserved;
      });

      // folders: the archive's own (empty ones too), then those its files' paths name
      const folders = new Map<string, string>([['', rootId]]);
      async function folderFor(parts: string[], original?: string): Promise<string> {
        let parent = rootId;
        for (let i = 0; i < parts.length; i++) {
          const key = parts.slice(0, i + 1).join('/');
          const known = folders.get(key);
          if (known) {
            parent = known;
            continue;
          }
          const id = derivedId(task.id, `d:${key}`);
          if (!(await files.repo.findOne(uid, id))) {
            const want = parts[i];
            const placed = await files.driveWrite(uid, async (t) => {
              await assertRunning(t);
              await files.assertRoomBelow(uid, parent, 1, t);
              const name = await files.freeName(uid, parent, want, 0, true, 'name.duplicateFolder', undefined, t);
              await files.repo.insert(folderRow(uid, id, parent, name), t);
              return name;
            });
            if (placed !== want) report({ name: original ?? key, action: 'renamed', to: [...parts.slice(0, i), placed].join('/'), reason: 'duplicate' });
          }
          folders.set(key, id);
          parent = id;
        }
        return parent;
      }
      async function assertRunning(t: Db) {
        const cur = await t.selectFrom('zip_tasks').select('status').where('id', '=', task.id).executeTakeFirst();
        if (!cur || cur.status !== TaskStatus.IN) throw new ArchiveError('cancelled');
      }
      for (const e of listing.entries) {
        if (!e.directory) continue;
        await folderFor(e.path, e.originalName);
        if (e.fixes.length) report({ name: e.originalName, action: 'renamed', to: e.path.join('/'), reason: e.fixes.includes('too-long') ? 'too-long' : 'forbidden-chars' });
      }

      const abort = new AbortController();
      let entriesDone = 0;
      let bytesDoneBefore = 0;
      let lastWrite = 0;
      let inEntry = 0;
      const flush = async (force = false) => {
        const now = Date.now();
        if (!force && now - lastWrite < PROGRESS_EVERY_MS) return;
        lastWrite = now;
        const bytesDone = bytesDoneBefore + inEntry;
        const cur = await tasks.findById(task.id);
        // cancelled (the row is gone): stop at once
        if (!cur || cur.status !== TaskStatus.IN) abort.abort();
        const progress = Math.floor((bytesTotal ? bytesDone / bytesTotal : entriesDone / Math.max(fileEntries.length, 1)) * 99);
        await tasks.update(task.id, { entries_done: entriesDone, bytes_done: bytesDone, progress, reports: JSON.stringify(reports) });
        await ctx.progress(progress).catch(() => undefined);
      };

      let index = 0;
      let chain: Promise<void> = Promise.resolve();
      const inFlight = new Set<Promise<void>>();
      /** the first failure of a file being stored (the others stop with it) */
      const failure: { hit: boolean; e?: unknown } = { hit: false };

      /** The entry's item, once its bytes are stored: a free name in its folder, only while the task still runs. */
      async function place(entry: ListedEntry, id: string, parentId: string, md5: string, size: number) {
        await blobs.addRef(md5);
        const want = entry.path[entry.path.length - 1];
        let row: ItemRow;
        try {
          row = await files.driveWrite(uid, async (t) => {
            await assertRunning(t);
            await files.requireFolder(uid, parentId, t);
            const name = await files.freeName(uid, parentId, want, 1, true, 'name.duplicateFile', undefined, t);
            const r = fileRow(uid, id, parentId, name, md5, size);
            await files.repo.insert(r, t);
            return r;
          });
        } catch (e) {
          await blobs.release([md5]);
          throw e;
        }
        if (row.name !== want) report({ name: entry.originalName, action: 'renamed', to: [...entry.path.slice(0, -1), row.name].join('/'), reason: 'duplicate' });
        else if (entry.fixes.length) report({ name: entry.originalName, action: 'renamed', to: entry.path.join('/'), reason: entry.fixes.includes('too-long') ? 'too-long' : 'forbidden-chars' });
        // thumbnails and the viewer's prewarm, as for an upload
        await thumbnails.afterUpload(row).catch(() => undefined);
        await prewarmAfterUpload(deps, row);
        entriesDone++;
        bytesDoneBefore += size;
        inEntry = 0;
        await flush();
      }

      try {
        await reader.extract(local.file, {
          password,
          limits: lim,
          language: task.names_language ?? undefined,
          signal: abort.signal,
          onEntry: async (entry: ListedEntry, data: Readable) => {
            if (failure.hit) throw failure.e;
            const id = derivedId(task.id, `f:${index++}`);
            const done = await files.repo.findOne(uid, id);
            if (done) {
              // stored by a run that was killed: not read again (the reader skips an entry left unread)
              entriesDone++;
              bytesDoneBefore += Number(done.size);
              return;
            }
            const parentId = await folderFor(entry.path.slice(0, -1));
            const body = await receive(data, task.id, (n) => {
              // a large entry shows its bytes while it unpacks, not only once it is stored
              inEntry = n;
              flush().catch(() => undefined);
            });
            // storing (an fsync or an S3 PUT per file) overlaps the next entries' unpacking; the items appear in the
            // archive's order, so duplicate names are numbered the same way every time
            const stored = storeBlob(body);
            stored.catch(() => undefined);
            const step = chain.then(async () => {
              if (failure.hit) {
                // stored ahead for a file that will not be placed: its bytes go again unless something else holds them
                await stored.then(() => blobs.addRef(body.md5).then(() => blobs.release([body.md5]))).catch(() => undefined);
                return;
              }
              try {
                await stored;
                await place(entry, id, parentId, body.md5, body.size);
              } catch (e) {
                if (!failure.hit) Object.assign(failure, { hit: true, e });
              }
            }).finally(() => body.discard());
            chain = step;
            inFlight.add(step);
            void step.finally(() => inFlight.delete(step));
            while (inFlight.size >= STORE_AHEAD) await Promise.race(inFlight);
            if (failure.hit) throw failure.e;
          },
        });
        await chain;
        if (failure.hit) throw failure.e;
      } catch (e) {
        // nothing may still be placing files when the task is undone
        await chain;
        const err = failure.hit && !(e instanceof ArchiveError && e.kind !== 'cancelled') ? failure.e : e;
        if (err instanceof ArchiveError) {
          if (err.kind === 'cancelled') throw new AppError('unzip.failed', [], 400);
          throw archiveEnd(err);
        }
        throw err;
      }

      // settle the quota: what was held beyond what the files take goes back, with the task's end in one write
      await files.driveWrite(uid, async (t) => {
        const cur = await t.selectFrom('zip_tasks').selectAll().where('id', '=', task.id).executeTakeFirst();
        if (!cur || cur.status !== TaskStatus.IN) throw new ArchiveError('cancelled');
        const ids = fileIdsOf(cur);
        let used = 0;
        for (let i = 0; i < ids.length; i += 500) {
          const rows = await t.selectFrom('items').select('size').where('uid', '=', uid).where('id', 'in', ids.slice(i, i + 500)).execute();
          used += rows.reduce((a, r) => a + Number(r.size), 0);
        }
        const back = Number(cur.reserved) - used;
        if (back > 0) await createQuotaRepository(t).release(uid, back);
        await tasks.update(task.id, { status: TaskStatus.SUCCESS, progress: 100, error: null, password_enc: null, reserved: 0, entries_done: fileEntries.length, bytes_done: used, reports: JSON.stringify(reports) }, t);
      });
    } finally {
      await local.done();
    }
  }

  /**
   * One entry's bytes, hashed on the way: kept in memory up to SMALL_ENTRY_BYTES (most drawings: no temp file to
   * create and remove), spilled to a temp file beyond.
   */
  async function receive(data: Readable, taskId: string, progress: (bytes: number) => void): Promise<EntryBody> {
    const hash = createHash('md5');
    let size = 0;
    let parts: Buffer[] = [];
    let file: string | undefined;
    let fh: Awaited<ReturnType<typeof fsp.open>> | undefined;
    try {
      for await (const c of data) {
        const chunk = c as Buffer;
        size += chunk.length;
        hash.update(chunk);
        progress(size);
        if (!fh && size <= SMALL_ENTRY_BYTES) {
          parts.push(chunk);
          continue;
        }
        if (!fh) {
          await fsp.mkdir(tempDir, { recursive: true });
          file = path.join(tempDir, instanceTempName('.part', `unzip-${taskId}`));
          fh = await fsp.open(file, 'wx');
          for (const p of parts) await fh.write(p);
          parts = [];
        }
        await fh.write(chunk);
      }
    } catch (e) {
      await fh?.close();
      if (file) await fsp.rm(file, { force: true });
      throw e;
    }
    await fh?.close();
    const md5 = hash.digest('hex');
    return { md5, size, buffer: file ? undefined : Buffer.concat(parts), file, discard: async () => { if (file) await fsp.rm(file, { force: true }); } };
  }

  /** Stores the bytes under their md5 unless they are stored already (uploads do the same: one object per content). */
  async function storeBlob(body: EntryBody) {
    if (await blobs.find(body.md5)) return;
    if (body.file) await deps.storage.importFile(blobKey(body.md5), body.file);
    else await deps.storage.put(blobKey(body.md5), body.buffer!, { size: body.size });
    await blobs.register(body.md5, body.size);
  }

  function folderRow(uid: string, id: string, parentId: string, name: string): ItemRow {
    const now = Date.now();
    return {
      id, uid, parent_id: parentId, kind: 0, name, type: 'folder', size: 0, blob_md5: null, version: 1, descp: '', private_type: '1', freeze: 0, thumbkey: null, transform_status: 3,
      browse_count: 0, like_count: 0, collection_count: 0, leave_message_count: 0, created_at: now, modified_at: now, deleted_at: null, trash_root: null, trash_parent_id: null,
    };
  }

  function fileRow(uid: string, id: string, parentId: string, name: string, md5: string, size: number): ItemRow {
    return { ...folderRow(uid, id, parentId, name), kind: 1, type: extensionOf(name) || 'file', size, blob_md5: md5 };
  }

  return service;
}

export type UnzipService = ReturnType<typeof createUnzipService>;
