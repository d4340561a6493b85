import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint } from '../../infra/http/endpoint.ts';
import { AppError } from '../../infra/http/app-error.ts';
import { sendStoredObject } from '../../infra/storage/object-reply.ts';
import type { RouteModule } from '../index.ts';
import { createDownloadsService } from './downloads.service.ts';
import { createUnzipService } from '../unzip/unzip.service.ts';
import { DOWNLOAD_LINK_PATH, resolveDownloadLink } from './download-links.ts';

export const downloadsRoutes: RouteModule = async (app, { deps }) => {
  const downloads = createDownloadsService(deps);
  const unzip = createUnzipService(deps);
  const tag = 'downloads';
  downloads.registerGrants();

  documentEndpoint(app, {
    method: 'get', path: DOWNLOAD_LINK_PATH, tag, auth: 'none', envelope: 'none',
    summary: "A download link (the signedUrl of file/download, share/download, version/download, font/download, downloadBatchTempUrl): valid a few minutes, its grant checked again on every use; local disk streams the bytes (Range honoured), S3 redirects to a presigned URL of a minute. Refused: 403 with the envelope and the reason (share gone, file binned or deleted, not a member, link expired)",
    bodyNote: 'query g (the link); through=server: streamed by the API on S3 too, not redirected (the web app\'s previews)',
  });
  app.get(DOWNLOAD_LINK_PATH, async (req, reply) => {
    const g = String((req.query as { g?: unknown }).g ?? '');
    let granted;
    try {
      granted = await resolveDownloadLink(deps, g, { uid: req.user?.id });
    } catch (e) {
      // a refused download is an HTTP error too, so a browser's download fails instead of saving the message
      if (e instanceof AppError) throw new AppError(e.code, e.args, 403, e.details);
      throw e;
    }
    // `through=server`: the app's own previews (pictures, PDFs) read the bytes with fetch(), which the page's CSP
    // (connect-src 'self') and the bucket's CORS would refuse after a redirect to the S3 host: they are streamed
    if (deps.storage.name === 's3' && (req.query as { through?: unknown }).through !== 'server') {
      const url = await deps.storage.signedGetUrl(granted.key, { expiresInSeconds: deps.config.downloadRedirectTtlSeconds, downloadName: granted.name });
      return reply.header('cache-control', 'no-store').redirect(url, 302);
    }
    return sendStoredObject(reply, deps.storage, granted.key, granted.name, req.headers.range);
  });

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
    request: c.taskListRequest, response: z.object({ list: z.array(c.unzipTaskSchema) }),
    handler: async (d, { user }) => ({ list: (await downloads.rows(user.id, d.taskType)).map(unzip.present) }),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/zip/task/taskStatus', tag, auth: 'user', summary: 'One task (status 0 waiting, 1 running, 2 done, 3 failed; unzip: 5 wrong password, 6 waiting for a password)',
    request: c.taskIdRequest, response: c.unzipTaskSchema,
    handler: async (d, { user }) => unzip.present(await downloads.row(user.id, d.taskId)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/zip/task/cancel', tag, auth: 'user', summary: 'Cancel and remove a task (a decompression stops, and what it extracted goes with it)',
    request: c.taskIdRequest, response: z.object({ cancelled: z.boolean() }),
    // a decompression takes what it extracted with it (unzip.service.ts)
    handler: async (d, { user }) => ((await downloads.status(user.id, d.taskId)).taskType === c.TaskType.UNZIP ? unzip.cancel(user.id, d.taskId) : downloads.cancel(user.id, d.taskId)),
  });
};
