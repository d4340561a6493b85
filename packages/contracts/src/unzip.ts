import { z } from 'zod';
import { zipTaskSchema } from './transfer.ts';

/**
 * Cloud decompression (issue 18; spec sections 4, 7, 8). An archive in the drive is checked (`detectUnzip`), then
 * extracted by a background task (taskType 2) into a folder next to it. The task calls are the download tasks'
 * (`/cloud/v5/zip/task/list|taskStatus|cancel`), with `taskType: 2`.
 *
 * Task status (TaskStatus in rules.ts) for an unzip task:
 *   BEFORE 0 waiting · IN 1 unpacking · SUCCESS 2 · FAIL 3 (`response` says why) ·
 *   PASSWORD_LOADING 6 the archive needs a password and none was given · PASSWORD_ERR 5 the password given is wrong.
 * In 5 and 6 the task waits: `unzip {fileId, password}` again continues the same task.
 */
export const UNZIP_PATHS = {
  detectUnzip: '/cloud/v5/file/detectUnzip',
  unzip: '/cloud/v5/file/unzip',
  unzipHasPassword: '/cloud/v5/file/unzipHasPassword',
} as const;

/** Extensions decompression accepts: the spec's archive group (zip, rar, 7z) and tar/tar.gz (issue 18's bonus). */
export const UNZIP_TYPES = ['zip', 'rar', '7z', 'tar', 'tgz', 'gz'] as const;
export const ARCHIVE_FORMATS = ['zip', '7z', 'rar', 'tar'] as const;
export type ArchiveFormat = (typeof ARCHIVE_FORMATS)[number];

/** Whether a file name is one the drive offers to decompress (`.tar.gz` ends in gz). */
export function isUnzipName(name: string): boolean {
  const lower = name.toLowerCase();
  const ext = lower.includes('.') ? lower.slice(lower.lastIndexOf('.') + 1) : '';
  return (UNZIP_TYPES as readonly string[]).includes(ext);
}

/** The spec's polling timer (section 7) for the unzip tab. */
export const UNZIP_POLL_MS = 5000;

const id = z.string().min(1).max(64);
const password = z.string().max(256);

export const detectUnzipRequest = z.object({ fileId: id, ctoken: z.any().optional() });
export const detectUnzipResult = z.object({
  format: z.enum(ARCHIVE_FORMATS),
  /** a folder named like the archive (without its extension) already exists next to it */
  hasRepeat: z.boolean(),
  folderId: z.string().nullable().describe('the same-name folder when hasRepeat'),
  /** the folder a decompression would create now: the archive's name, or with mode "new" a free renamed one */
  folderName: z.string(),
  newFolderName: z.string().describe('the renamed folder mode "new" would create'),
  needPassword: z.boolean().describe('some entry (or the 7z header) is encrypted'),
  entryCount: z.number().describe('files and folders; null-free even when the header is encrypted (then 0 until a password is given)'),
  totalSize: z.number().describe('bytes the archive unpacks to, as its listing says'),
  /** an unfinished task of this archive (waiting, unpacking, or waiting for a password) */
  taskId: z.string().nullable(),
});

export const unzipRequest = z.object({
  fileId: id,
  password: password.optional(),
  /** 'new': extract into a renamed folder even though one of the archive's name exists (the "decompress again" choice) */
  mode: z.enum(['new']).optional(),
  ctoken: z.any().optional(),
});

export const unzipHasPasswordRequest = z.object({ fileId: id, password, ctoken: z.any().optional() });
export const unzipHasPasswordResult = z.object({ correct: z.boolean() });

/** Why an entry was not extracted as named (issue 18 parts 2 and 3): reported on the task, never silent. */
export const unzipEntryReportSchema = z.object({
  name: z.string().describe('the entry as named in the archive'),
  /** renamed: forbidden characters replaced or a duplicate name numbered; refused: never written */
  action: z.enum(['renamed', 'refused']),
  to: z.string().nullable().describe('the drive path it got when renamed'),
  reason: z.enum(['forbidden-chars', 'too-long', 'duplicate', 'parent-path', 'absolute-path', 'drive-letter', 'symlink', 'hardlink', 'empty-name']),
});

export const unzipDetailSchema = z.object({
  fileId: z.string().describe('the archive'),
  folderId: z.string().nullable().describe('the folder being filled (set once extraction starts)'),
  format: z.enum(ARCHIVE_FORMATS).nullable(),
  entriesDone: z.number(),
  entriesTotal: z.number(),
  bytesDone: z.number(),
  bytesTotal: z.number(),
  reports: z.array(unzipEntryReportSchema).describe('at most 200, the first ones'),
  /** the arguments of the failure's message when it has some (`response` unzip.tooLarge: ["2 GB"]) */
  responseArgs: z.array(z.string()).optional(),
});

/** A task as the task calls answer it; unzip tasks (taskType 2) carry `unzip`. */
export const unzipTaskSchema = zipTaskSchema.extend({ unzip: unzipDetailSchema.nullable().optional() });
export type UnzipTask = z.infer<typeof unzipTaskSchema>;
