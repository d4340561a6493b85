import { z } from 'zod';
import type { Readable } from 'node:stream';
import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint, ok } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import type { RouteModule } from '../index.ts';
import { createUploadsService } from './uploads.service.ts';

export const uploadsRoutes: RouteModule = async (app, { deps }) => {
  const uploads = createUploadsService(deps);
  const tag = 'uploads';

  documentEndpoint(app, {
    method: 'post', path: '/cloud/v5/file/upload', tag, auth: 'user', summary: 'Multipart upload (call style 5): fields parentId, relativePath (folder uploads), md5 (optional check), conflict (\'rename\' default: a file of that name is kept and this one renamed "name (1).ext"; \'version\': this becomes the next version of that file, answered as that item), then the file part `filedata`',
    bodyNote: 'multipart/form-data: parentId, relativePath?, md5?, size?, conflict? (rename|version), filedata (the file, last)', response: c.itemSchema,
  });
  app.post('/cloud/v5/file/upload', async (req) => {
    if (!req.user) throw appError('auth.notSignedIn');
    if (!req.isMultipart()) throw appError('request.invalid');
    const part = await req.file();
    if (!part) throw appError('request.invalid');
    const field = (n: string) => {
      const f = part.fields[n] as { value?: unknown } | undefined;
      const q = (req.query as Record<string, string | undefined>)[n];
      return f && 'value' in f ? String(f.value) : q;
    };
    const conflict = c.uploadConflictSchema.optional().safeParse(field('conflict') || undefined);
    if (!conflict.success) throw appError('request.invalid');
    const declaredSize = Number(field('size') ?? req.headers['content-length'] ?? NaN);
    const item = await uploads.uploadStream(
      req.user,
      { parentId: field('parentId') ?? '0', relativePath: field('relativePath') || undefined, name: part.filename, conflict: conflict.data },
      part.file,
      { size: Number.isFinite(declaredSize) && field('size') ? declaredSize : undefined, md5: field('md5') || undefined },
    );
    return ok(item);
  });

  defineEndpoint(app, {
    path: '/cloud/v5/file/detectUpload', tag, auth: 'user', summary: 'Instant upload: the file appears without its bytes being sent when they are stored and the caller owns them already or answers the `possession` challenge (ranges of the file hashed with a nonce; see contracts transfer.ts) — otherwise needUpload, with a challenge, whether or not the bytes are stored; conflict \'version\' makes them the next version of the file of that name',
    request: c.detectUploadRequest, response: c.detectUploadResult,
    handler: (d, { user }) => uploads.detectUpload(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/detectUploadBatch', tag, auth: 'user', summary: 'Instant upload for several files, each as detectUpload (its own possession challenge or proof); each answer says whether its bytes are needed',
    request: c.detectUploadBatchRequest, response: c.detectUploadBatchResult,
    handler: async (d, { user }) => {
      const list = [];
      for (const f of d.files) {
        try {
          list.push({ name: f.name, ...(await uploads.detectUpload(user, f)) });
        } catch (e: any) {
          if (!e?.rtnCode) throw e;
          list.push({ name: f.name, exists: false, needUpload: false, item: null, rtnCode: e.rtnCode, msg: e.code });
        }
      }
      return { list };
    },
  });
  defineEndpoint(app, {
    path: '/cloud/v5/upload/init', tag, auth: 'user', summary: 'Start or resume a chunked upload; send chunks from `received`. Instant (item, no uploadId) on the terms of detectUpload: `possession` proof in, challenge out',
    request: c.uploadInitRequest, response: c.uploadInitResult,
    handler: (d, { user }) => uploads.initChunked(user, d),
  });
  documentEndpoint(app, {
    method: 'put', path: '/cloud/v5/upload/chunk', tag, auth: 'user', summary: 'Binary chunk: query uploadId and offset; answers {received}',
    bodyNote: 'application/octet-stream body; query uploadId, offset',
  });
  app.put('/cloud/v5/upload/chunk', async (req) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const q = z.object({ uploadId: z.string().min(1).max(64), offset: z.coerce.number().int().min(0) }).parse(req.query);
    const length = req.headers['content-length'] === undefined ? undefined : Number(req.headers['content-length']);
    return ok(await uploads.putChunk(req.user, q.uploadId, q.offset, req.body as Readable, length));
  });
  defineEndpoint(app, {
    path: '/cloud/v5/upload/complete', tag, auth: 'user', summary: 'Finish a chunked upload: the MD5 is verified before the file appears',
    request: c.uploadIdRequest, response: c.uploadCompleteResult,
    handler: (d, { user }) => uploads.completeChunked(user, d.uploadId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/upload/direct/init', tag, auth: 'user', summary: 'Direct-to-storage upload (S3 only): a presigned PUT that requires header x-oss-meta-md5',
    request: c.uploadInitRequest, response: c.directInitResult,
    handler: (d, { user }) => uploads.initDirect(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/upload/direct/complete', tag, auth: 'user', summary: 'After the PUT: checks the stored object and its MD5, then the file appears',
    request: c.uploadIdRequest, response: c.uploadCompleteResult,
    handler: (d, { user }) => uploads.completeDirect(user, d.uploadId),
  });
};
