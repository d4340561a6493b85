import type { AppDeps } from '../../app.deps.ts';
import { createQuotaService } from '../quota/quota.service.ts';
import { createBlobsService } from '../blobs/blobs.service.ts';
import { createVersionsRepository } from './versions.repository.ts';

interface FileLike {
  blob_md5: string | null;
  size: number | string;
  private_type: string;
  deleted_at: number | null;
}

/**
 * The bytes a file counts toward its owner's used storage, history included:
 * - its current content, as the drive always counted it (size, while private and not in the recycle bin);
 * - plus each distinct content among its other kept versions, once: bytes equal to the current content or to another
 *   kept version add nothing. The recycle bin keeps a file's history, so these count until the version is deleted or
 *   the file is deleted for good.
 */
export function countedBytes(item: FileLike, liveVersions: { blob_md5: string; size: number | string }[]): number {
  const current = item.private_type === '1' && item.deleted_at === null ? Number(item.size) : 0;
  const extra = new Map<string, number>();
  for (const v of liveVersions) if (v.blob_md5 !== item.blob_md5) extra.set(v.blob_md5, Number(v.size));
  let sum = current;
  for (const n of extra.values()) sum += n;
  return sum;
}

/** Only the history part of `countedBytes` (what is left once the file itself stopped counting). */
export function historyBytes(item: { blob_md5: string | null }, liveVersions: { blob_md5: string; size: number | string }[]): number {
  return countedBytes({ blob_md5: item.blob_md5, size: 0, private_type: '0', deleted_at: null }, liveVersions);
}

/**
 * Files deleted for good (permanent delete, emptied recycle bin, retention sweep): their versions' blob references and
 * history storage are given back and the version rows go. Called by the files module with the rows it deleted.
 */
export async function releaseVersionsOfFiles(deps: Pick<AppDeps, 'db' | 'storage'>, uid: string, items: { id: string; kind: number; blob_md5: string | null }[]) {
  const fileRows = items.filter((i) => i.kind === 1);
  if (!fileRows.length) return;
  const repo = createVersionsRepository(deps.db);
  const versions = await repo.liveOfItems(uid, fileRows.map((i) => i.id));
  if (!versions.length) return;
  let bytes = 0;
  for (const item of fileRows) bytes += historyBytes(item, versions.filter((v) => v.item_id === item.id));
  await repo.deleteOfItems(uid, fileRows.map((i) => i.id));
  await createBlobsService(deps).release(versions.map((v) => v.blob_md5));
  await createQuotaService(deps).release(uid, bytes);
}
