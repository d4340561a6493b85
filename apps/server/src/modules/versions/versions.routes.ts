import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint, ok } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import { sendStoredZip } from '../../infra/storage/zip-reply.ts';
import { addDrawingAccess } from '../drawings/drawing-access.ts';
import type { RouteModule } from '../index.ts';
import { createVersionsService, type VersionActor } from './versions.service.ts';

/** Version history (spec section 7, "Versions"): every call is scoped to the signed-in user's own files. */
export const versionsRoutes: RouteModule = async (app, { deps }) => {
  const versions = createVersionsService(deps);
  versions.registerGrants();
  const tag = 'versions';
  const actorOf = (u: { id: string; name: string; freeze: number }): VersionActor => ({ id: u.id, name: u.name, freeze: u.freeze });

  // the viewer on an earlier version: /cloud/v5/drawing/scene?fileId&versionId, owner only
  addDrawingAccess(deps, async (req) => (req.uid && req.versionId && !req.shareToken ? versions.drawingSource(req.uid, req.fileId, req.versionId) : undefined));

  defineEndpoint(app, {
    path: '/cloud/v5/version/history', tag, auth: 'user', summary: 'Versions of one of the user\'s files, newest first, paged (pageNo from 1); sourceName and updateName filter by substring. A file without history gets its V1 written down',
    request: c.versionHistoryRequest, response: c.versionHistoryResult,
    handler: (d, { user }) => versions.history(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/getFileVersionLatestNumber', tag, auth: 'user', summary: 'The number and id of a file\'s latest version',
    request: c.versionFileRequest, response: c.versionLatestResult,
    handler: (d, { user }) => versions.latestNumber(user.id, d.fileId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/delete', tag, auth: 'user', summary: 'Delete one version (not the latest, hence never the only one); its bytes leave storage when nothing else holds them',
    request: c.versionIdRequest, response: c.versionDeleteResult,
    handler: (d, { user }) => versions.remove(user.id, [d.versionId]),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/deleteBatch', tag, auth: 'user', summary: 'Delete several versions, all or nothing (a latest version among them refuses the call)',
    request: c.versionIdsRequest, response: c.versionDeleteResult,
    handler: (d, { user }) => versions.remove(user.id, d.versionIds),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/updateRemark', tag, auth: 'user', summary: 'Set a version\'s remark (at most 200 characters; empty clears it)',
    request: c.versionRemarkRequest, response: c.versionSchema,
    handler: (d, { user }) => versions.updateRemark(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/back', tag, auth: 'user', summary: 'Roll back to a version: its content becomes a new latest version \'rollback from Vx\' (nothing is destroyed)',
    request: c.versionBackRequest, response: c.versionSchema,
    handler: (d, { user }) => versions.back(actorOf(user), d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/copy', tag, auth: 'user', summary: 'Another of the user\'s cloud files (same type) becomes the new version of this one',
    request: c.versionCopyRequest, response: c.versionSchema,
    handler: (d, { user }) => versions.copy(actorOf(user), d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/version/download', tag, auth: 'user', summary: 'Signed URL of a version\'s bytes, named "<source>_V<n>.<ext>"',
    request: c.versionIdRequest, response: c.versionDownloadResult,
    handler: (d, { user }) => versions.download(user.id, d.versionId),
  });

  documentEndpoint(app, {
    method: 'post', path: '/cloud/v5/version/upload', tag, auth: 'user',
    summary: 'A new version: multipart (call style 5) with fileId, md5? then one `filedata` part (a second file: \'Only one file can be uploaded at a time!!\'); or JSON {data:{fileId, md5, size, name?, possession?}} for the instant path, on the terms of file/detectUpload (needUpload with a `possession` challenge unless the bytes are the caller\'s own or proved)',
    bodyNote: 'multipart/form-data: fileId, md5?, filedata (last) → version; or application/json versionInstantUploadRequest → versionUploadResult',
    request: c.versionInstantUploadRequest, response: c.versionUploadResult,
  });
  app.post('/cloud/v5/version/upload', async (req) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const actor = actorOf(req.user);
    if (!req.isMultipart()) {
      const body = z.object({ data: c.versionInstantUploadRequest }).safeParse(req.body ?? {});
      if (!body.success) throw appError('request.invalid');
      return ok(await versions.instantUpload(actor, body.data.data));
    }
    const fields: Record<string, string> = { ...(req.query as Record<string, string>) };
    let received: { name: string; tmp: { path: string; size: number; md5: string } } | null = null;
    try {
      try {
        for await (const part of req.parts()) {
          if (part.type === 'field') {
            fields[part.fieldname] = String(part.value);
            continue;
          }
          if (received) {
            part.file.resume();
            throw appError('version.oneFile');
          }
          received = { name: part.filename, tmp: await versions.receive(part.file) };
        }
      } catch (e) {
        if ((e as { code?: string }).code === 'FST_FILES_LIMIT') throw appError('version.oneFile');
        throw e;
      }
      if (!received) throw appError('version.selectFile');
      const fileId = z.string().min(1).max(64).safeParse(fields.fileId);
      if (!fileId.success) throw appError('request.invalid');
      return ok(await versions.upload(actor, fileId.data, received.name, received.tmp, fields.md5 || undefined));
    } finally {
      if (received) await versions.dropTemp(received.tmp.path);
    }
  });

  documentEndpoint(app, {
    method: 'post', path: '/cloud/v5/version/downloadBatchZip', tag, auth: 'user', summary: 'Zip of several versions, streamed in the answer (call style 7); body {data:{versionIds}}, utoken in the query',
    bodyNote: 'application/json {data:{versionIds:[…]}} → application/zip', request: c.versionIdsRequest, envelope: 'none',
  });
  app.post('/cloud/v5/version/downloadBatchZip', async (req: FastifyRequest, reply) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const body = z.object({ data: c.versionIdsRequest }).safeParse(req.body ?? {});
    if (!body.success) throw appError('version.selectFile');
    const entries = await versions.batchEntries(req.user.id, body.data.data.versionIds);
    return sendStoredZip(reply, deps.storage, entries, 'versions.zip');
  });
};
