import type { TFunction } from 'i18next';
import { isValidItemName, isValidRelativePath } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';
import { formatSize } from '../../lib/format.ts';
import { md5OfFile } from './md5.ts';
import { tryInstant, type InstantAnswer } from './possession.ts';
import { CHUNK_THRESHOLD, uploadChunked, uploadMultipart } from './transfer.ts';
import { UploadQueue, type UploadRunner } from './upload-queue.ts';

/**
 * Hash → instant upload if the server has the bytes and we prove to hold them (possession.ts) → multipart (small)
 * or chunked (large, resumable).
 */
export const runUpload: UploadRunner = async (entry, report) => {
  const md5 = await md5OfFile(entry.file);
  const target = { parentId: entry.parentId, relativePath: entry.relativePath, name: entry.name, md5, size: entry.size, ...(entry.conflict ? { conflict: entry.conflict } : {}) };
  const instant = await tryInstant(entry.file, (possession) => call<InstantAnswer>('/cloud/v5/file/detectUpload', { ...target, ...(possession ? { possession } : {}) }));
  if (instant) return 'instant';
  report({ status: 'uploading' });
  const progress = (loaded: number) => report({ loaded });
  if (entry.size > CHUNK_THRESHOLD) await uploadChunked(entry.file, target, progress);
  else await uploadMultipart(entry.file, target, progress);
  return 'success';
};

export const uploadQueue = new UploadQueue(runUpload);

/**
 * Why a chosen file cannot be uploaded, told before anything is sent: over the size limit, or a name the server
 * refuses (spec section 5 and contracts/rules.ts) for the file or a folder of its path in a folder upload. Null: fine.
 */
export function uploadProblem(f: { file: File; relativePath?: string }, limit: number, t: TFunction): string | null {
  if (f.file.size > limit) return t('upload.tooLarge', { size: formatSize(limit) });
  if (!isValidItemName(f.file.name) || (f.relativePath && !isValidRelativePath(f.relativePath))) return `${t('name.invalid')}: ${f.relativePath ?? f.file.name}`;
  return null;
}

/** Files of a drop, folders included (DataTransferItem.webkitGetAsEntry walks directories). */
export async function filesFromDrop(dt: DataTransfer): Promise<{ file: File; relativePath?: string }[]> {
  const out: { file: File; relativePath?: string }[] = [];
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry?.()).filter(Boolean) as FileSystemEntry[];
  if (!entries.length) return [...dt.files].map((file) => ({ file }));
  async function walk(entry: FileSystemEntry, prefix: string): Promise<void> {
    if (entry.isFile) {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      out.push({ file, relativePath: prefix ? `${prefix}${file.name}` : undefined });
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const e of batch) await walk(e, `${prefix}${entry.name}/`);
      }
    }
  }
  for (const e of entries) await walk(e, '');
  return out;
}
