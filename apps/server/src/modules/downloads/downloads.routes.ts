import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createDownloadsService } from './downloads.service.ts';

export const downloadsRoutes: RouteModule = async (app, { deps }) => {
  const downloads = createDownloadsService(deps);
  const tag = 'downloads';

  defineEndpoint(app, {
    path: '/cloud/v5/file/download', tag, auth: 'user', summary: 'Signed URL of a file (allowed while frozen)',
    request: c.downloadRequest, response: c.downloadResult,
    handler: (d, { user }) => downloads.download(user.id, d.fileId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/downloadBatchZip', tag, auth: 'user', summary: 'Queue a zip of files and folders (one at a time per user)',
    request: c.batchZipRequest, response: c.zipTaskSchema,
    handler: (d, { user, req }) => downloads.requestZip(user, { ...d, language: d.language ?? (req.body as any)?.clientInfo?.language }),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/downloadBatchTempUrl', tag, auth: 'user', summary: 'Signed URL of a finished zip',
    request: c.taskIdRequest, response: c.downloadResult,
    handler: (d, { user }) => downloads.tempUrl(user.id, d.taskId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/zip/task/list', tag, auth: 'user', summary: 'Tasks (taskType 1 download, 2 unzip)',
    request: c.taskListRequest, response: z.object({ list: z.array(c.zipTaskSchema) }),
    handler: (d, { user }) => downloads.list(user.id, d.taskType),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/zip/task/taskStatus', tag, auth: 'user', summary: 'One task (status 0 waiting, 1 running, 2 done, 3 failed)',
    request: c.taskIdRequest, response: c.zipTaskSchema,
    handler: (d, { user }) => downloads.status(user.id, d.taskId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/zip/task/cancel', tag, auth: 'user', summary: 'Cancel and remove a task',
    request: c.taskIdRequest, response: z.object({ cancelled: z.boolean() }),
    handler: (d, { user }) => downloads.cancel(user.id, d.taskId),
  });
};
