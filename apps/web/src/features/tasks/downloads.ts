import { call } from '../../lib/api.ts';

export interface ZipTask {
  taskId: string;
  status: number;
  name: string;
  progress: number;
  size: number | null;
  createTimestamp: number;
  response: string | null;
}

export const downloadsApi = {
  requestZip: (fileIds: string[], folderIds: string[]) => call<ZipTask>('/cloud/v5/file/downloadBatchZip', { fileIds, folderIds }),
  list: () => call<{ list: ZipTask[] }>('/cloud/v5/zip/task/list', { taskType: 1 }),
  tempUrl: (taskId: string) => call<{ signedUrl: string; name: string }>('/cloud/v5/file/downloadBatchTempUrl', { taskId }),
  cancel: (taskId: string) => call('/cloud/v5/zip/task/cancel', { taskId }),
};
