import { TaskStatus, TaskType, UNZIP_PATHS, isUnzipName, type UnzipTask } from '@cadcloud/contracts';
import { serverMessage } from '@cadcloud/i18n';
import { call } from '../../lib/api.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { isPhone } from '../../lib/device.ts';

export type { UnzipTask };

export interface DetectUnzip {
  format: string;
  hasRepeat: boolean;
  folderId: string | null;
  folderName: string;
  newFolderName: string;
  needPassword: boolean;
  entryCount: number;
  totalSize: number;
  taskId: string | null;
}

/** Section 7's decompression calls; the tasks are the download tasks' calls with taskType 2. */
export const unzipApi = {
  detect: (fileId: string) => call<DetectUnzip>(UNZIP_PATHS.detectUnzip, { fileId }),
  unzip: (fileId: string, o: { password?: string; mode?: 'new' } = {}) => call<UnzipTask>(UNZIP_PATHS.unzip, { fileId, ...o }),
  hasPassword: (fileId: string, password: string) => call<{ correct: boolean }>(UNZIP_PATHS.unzipHasPassword, { fileId, password }),
  list: () => call<{ list: UnzipTask[] }>('/cloud/v5/zip/task/list', { taskType: TaskType.UNZIP }),
  cancel: (taskId: string) => call('/cloud/v5/zip/task/cancel', { taskId }),
};

/** A file the drive offers to decompress (section 5: archives). */
export const isArchive = (i: { fileType: number; name: string }) => i.fileType === 1 && isUnzipName(i.name);
/** Waiting or unpacking: the list looks again until none is (5 and 6 wait for the user, who answers through this page). */
export const isRunning = (t: { status: number }) => t.status === TaskStatus.BEFORE || t.status === TaskStatus.IN;
/** A server message by its key (errors.ts), e.g. a failed task's `response`; anything that is no key is shown as it is. */
export const errorText = (key: string, args?: readonly string[]) => serverMessage(key, currentLanguage(), args);
/** The drive page of a folder: the phone's cloud list on a phone, the desktop's otherwise. */
export const folderPath = (folderId: string) => (isPhone() ? `/webH5/cloud?folderId=${folderId}` : `/yun/index?folderId=${folderId}`);

/**
 * `changed`: decompressions started or continued, so the lists showing them look again. `extracted`: an archive's
 * task finished, so a drive list showing that archive (its folder, which got the new one) looks again.
 */
const changed = new Set<() => void>();
const extracted = new Set<(archiveId: string) => void>();
function add<T>(set: Set<T>, fn: T) {
  set.add(fn);
  return () => void set.delete(fn);
}
export const unzipEvents = {
  changed: () => changed.forEach((l) => l()),
  extracted: (archiveId: string) => extracted.forEach((l) => l(archiveId)),
  onChanged: (fn: () => void) => add(changed, fn),
  onExtracted: (fn: (archiveId: string) => void) => add(extracted, fn),
};
