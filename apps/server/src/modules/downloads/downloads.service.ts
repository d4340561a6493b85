import { createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { MAX_FOLDER_DEPTH, TaskStatus, TaskType, type ArchiveFormat, type UnzipTask } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import { newId } from '../../infra/db/ids.ts';
import { blobKey } from '../../infra/storage/storage-keys.ts';
import { createFilesService, type Actor } from '../files/files.service.ts';
import type { ItemRow } from '../files/items.repository.ts';
import { uploadsDir } from '../uploads/upload-temp.ts';
import { instanceTempName } from '../../infra/instance.ts';
import { createZipTasksRepository, type ZipTaskRow } from './zip-tasks.repository.ts';
import { addDownloadGrant, downloadLink } from './download-links.ts';

export const ZIP_BUILD_JOB = 'zip.build';

/** The decompression columns of a task that is not one (a download). */
export const NOT_UNZIP = { archive_id: null, folder_id: null, unzip_mode: null, format: null, entries_done: 0, entries_total: 0, bytes_done: 0, bytes_total: 0, reports: null, password_enc: null, reserved: 0, names_language: null };

/** A task as the task calls answer it; a decompression (taskType 2) carries `unzip` (contracts' unzipTaskSchema). */
export function presentTask(t: ZipTaskRow): UnzipTask {
  const base = { taskId: t.id, taskType: t.task_type, status: t.status, name: t.name, progress: Number(t.progress), size: t.result_size === null ? null : Number(t.result_size), createTimestamp: Number(t.created_at), response: t.error };
  if (t.task_type !== TaskType.UNZIP) return base;
  // the reports column: the name reports, and the failure message's arguments as an `{args}` item
  let stored: unknown[] = [];
  try {
    stored = t.reports ? JSON.parse(t.reports) : [];
  } catch {
    stored = [];
  }
  const isArgs = (r: unknown): r is { args: string[] } => !!r && typeof r === 'object' && 'args' in r;
  const args = stored.find(isArgs)?.args;
  return {
    ...base,
    unzip: {
      fileId: t.archive_id ?? '',
      folderId: t.folder_id,
      format: (t.format ?? null) as ArchiveFormat | null,
      entriesDone: Number(t.entries_done),
      entriesTotal: Number(t.entries_total),
      bytesDone: Number(t.bytes_done),
      bytesTotal: Number(t.bytes_total),
      reports: stored.filter((r) => !isArgs(r)) as NonNullable<UnzipTask['unzip']>['reports'],
      ...(args ? { responseArgs: args } : {}),
    },
  };
}

/** Downloads: links for single files, zip archives built by a background job for several (download-links.ts). */
export function createDownloadsService(deps: AppDeps) {
  const files = createFilesService(deps);
  const tasks = createZipTasksRepository(deps.db);

  /** The user's live file with the bytes the link was given for (a new version or a bin ends the link). */
  async function liveFile(uid: string, fileId: string, md5?: string) {
    const row = await files.repo.findOne(uid, fileId);
    if (!row || row.kind !== 1 || !row.blob_md5 || (md5 !== undefined && row.blob_md5 !== md5)) throw appError('item.notFound');
    return row;
  }
  /** A finished zip of the user that has not been cancelled, whose selection is still in the drive. */
  async function finishedZip(uid: string, taskId: string) {
    const t = await tasks.find(uid, taskId);
    if (!t) throw appError('item.notFound');
    if (t.status !== TaskStatus.SUCCESS || !t.result_key) throw appError('zip.notReady');
    const { fileIds, folderIds } = JSON.parse(t.request_key) as { fileIds: string[]; folderIds: string[] };
    const ids = [...fileIds, ...folderIds];
    if ((await files.repo.findOwned(uid, ids)).length !== new Set(ids).size) throw appError('item.notFound');
    return { ...t, result_key: t.result_key };
  }

  /** Every file of the selection with its path inside the archive. */
  async function collect(uid: string, fileIds: string[], folderIds: string[]) {
    const roots = await files.repo.findOwned(uid, [...fileIds, ...folderIds]);
    if (roots.length !== new Set([...fileIds, ...folderIds]).size) throw appError('item.notFound');
    const tree = await files.repo.subtree(uid, roots.filter((r) => r.kind === 0).map((r) => r.id));
    const byId = new Map<string, ItemRow>([...tree, ...roots].map((r) => [r.id, r]));
    const rootIds = new Set(roots.map((r) => r.id));
    // up to the chosen item it came with; the walk's rows lead there within MAX_FOLDER_DEPTH levels, the bound is for a damaged tree
    const pathOf = (r: ItemRow): string => {
      const parts = [r.name];
      let at = r;
      while (!rootIds.has(at.id) && byId.has(at.parent_id) && parts.length <= MAX_FOLDER_DEPTH) {
        at = byId.get(at.parent_id)!;
        parts.unshift(at.name);
      }
      return parts.join('/');
    };
    const entries = [...byId.values()].filter((r) => r.kind === 1).map((r) => ({ path: pathOf(r), md5: r.blob_md5!, size: Number(r.size), modified: r.modified_at }));
    const emptyFolders = [...byId.values()].filter((r) => r.kind === 0).map((r) => pathOf(r));
    return { roots, entries, emptyFolders };
  }

  return {
    /** The links' checks, registered once per app (routes). */
    registerGrants() {
      addDownloadGrant(deps, 'file', async (g) => {
        const row = await liveFile(String(g.u), String(g.f), String(g.b));
        return { key: blobKey(row.blob_md5!), name: row.name };
      });
      addDownloadGrant(deps, 'zip', async (g) => {
        const t = await finishedZip(String(g.u), String(g.t));
        return { key: t.result_key, name: t.name };
      });
    },

    async download(uid: string, fileId: string) {
      const row = await liveFile(uid, fileId);
      const { url } = downloadLink(deps, { k: 'file', u: uid, f: row.id, b: row.blob_md5! });
      return { signedUrl: url, downloadUrl: url, name: row.name, size: Number(row.size) };
    },

    async requestZip(actor: Actor, o: { fileIds: string[]; folderIds: string[]; language?: string }) {
      const fileIds = [...new Set(o.fileIds)].sort();
      const folderIds = [...new Set(o.folderIds)].sort();
      if (!fileIds.length && !folderIds.length) throw appError('request.invalid');
      const { roots, entries } = await collect(actor.id, fileIds, folderIds);
      if (!entries.length) throw appError('zip.emptyFolder');
      const key = JSON.stringify({ fileIds, folderIds });
      if (await tasks.findPendingByKey(actor.id, key)) throw appError('zip.alreadyQueued');
      const lang = (o.language ?? 'zh').slice(0, 2);
      const name = roots.length === 1 ? `${roots[0].name.replace(/\.[^.]+$/, '')}.zip` : `${roots[0].name.replace(/\.[^.]+$/, '')} (+${roots.length - 1})_${lang}.zip`;
      const now = Date.now();
      const task: ZipTaskRow = { id: newId(), uid: actor.id, task_type: TaskType.DOWNLOAD, status: TaskStatus.BEFORE, request_key: key, name, progress: 0, result_key: null, result_size: null, error: null, created_at: now, updated_at: now, ...NOT_UNZIP };
      await tasks.insert(task);
      await deps.queue.enqueue(ZIP_BUILD_JOB, { taskId: task.id }, { jobId: `zip-${task.id}` });
      return presentTask(task);
    },

    /** The job: waits its turn (one zip per user at a time), streams the archive to a temp file, stores it. */
    async buildZip(taskId: string, progress: (pct: number) => Promise<void>): Promise<'done' | 'later' | 'gone'> {
      const task = await tasks.findById(taskId);
      if (!task || task.status >= TaskStatus.SUCCESS) return 'gone';
      if (task.status === TaskStatus.BEFORE && !(await tasks.tryStart(task.uid, task.id))) return 'later';
      const { fileIds, folderIds } = JSON.parse(task.request_key) as { fileIds: string[]; folderIds: string[] };
      const tmp = path.join(uploadsDir(deps.config.dataDir), instanceTempName('.part', `zip-${task.id}`));
      await fsp.mkdir(path.dirname(tmp), { recursive: true });
      try {
        const { entries, emptyFolders } = await collect(task.uid, fileIds, folderIds);
        const total = entries.reduce((a, e) => a + e.size, 0) || 1;
        const zip = new yazl.ZipFile();
        const out = createWriteStream(tmp);
        const finished = new Promise<void>((resolve, reject) => {
          out.on('close', resolve);
          out.on('error', reject);
          zip.outputStream.on('error', reject);
        });
        zip.outputStream.pipe(out);
        for (const f of emptyFolders) zip.addEmptyDirectory(f);
        let done = 0;
        for (const e of entries) {
          // entries are added one by one so a cancelled task stops early and progress is real
          if (!(await tasks.findById(task.id))) throw new Error('cancelled');
          const stream = await deps.storage.get(blobKey(e.md5));
          await new Promise<void>((resolve, reject) => {
            stream.on('end', resolve);
            stream.on('error', reject);
            zip.addReadStream(stream, e.path, { mtime: new Date(e.modified), size: e.size });
          });
          done += e.size;
          await progress((done / total) * 95);
          await tasks.update(task.id, { progress: Math.floor((done / total) * 95) });
        }
        zip.end();
        await finished;
        const size = (await fsp.stat(tmp)).size;
        const key = `zips/${task.uid}/${task.id}.zip`;
        await deps.storage.importFile(key, tmp);
        if (!(await tasks.findById(task.id))) {
          await deps.storage.delete(key);
          return 'gone';
        }
        await tasks.update(task.id, { status: TaskStatus.SUCCESS, progress: 100, result_key: key, result_size: size });
        return 'done';
      } catch (e) {
        const msg = (e as Error).message;
        if (msg !== 'cancelled') await tasks.update(task.id, { status: TaskStatus.FAIL, error: msg });
        throw e;
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    },

    async tempUrl(uid: string, taskId: string) {
      const t = await finishedZip(uid, taskId);
      const { url } = downloadLink(deps, { k: 'zip', u: uid, t: t.id });
      return { signedUrl: url, downloadUrl: url, name: t.name, size: t.result_size ?? 0 };
    },

    async list(uid: string, taskType?: number) {
      return { list: (await tasks.list(uid, taskType)).map(presentTask) };
    },

    async rows(uid: string, taskType?: number) {
      return tasks.list(uid, taskType);
    },

    async row(uid: string, taskId: string) {
      const t = await tasks.find(uid, taskId);
      if (!t) throw appError('item.notFound');
      return t;
    },

    async status(uid: string, taskId: string) {
      const t = await tasks.find(uid, taskId);
      if (!t) throw appError('item.notFound');
      return presentTask(t);
    },

    async cancel(uid: string, taskId: string) {
      const t = await tasks.find(uid, taskId);
      if (!t) throw appError('item.notFound');
      await tasks.delete(uid, taskId);
      if (t.result_key) await deps.storage.delete(t.result_key).catch(() => undefined);
      return { cancelled: true };
    },
  };
}
