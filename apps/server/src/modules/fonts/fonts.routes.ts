import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint, ok } from '../../infra/http/endpoint.ts';
import { appError } from '../../infra/http/app-error.ts';
import { sendStoredZip } from '../../infra/storage/zip-reply.ts';
import { attachmentDisposition } from '../../infra/storage/content-disposition.ts';
import type { RouteModule } from '../index.ts';
import { createFontsService } from './fonts.service.ts';

const CONTENT_TYPES: Record<string, string> = { ttf: 'font/ttf', ttc: 'font/collection', shx: 'application/octet-stream' };

/** The font library (spec section 7, "Fonts (signed)"). Every call is scoped to the signed-in user's fonts. */
export const fontsRoutes: RouteModule = async (app, { deps }) => {
  const fonts = createFontsService(deps);
  fonts.registerGrants();
  const tag = 'fonts';

  defineEndpoint(app, {
    path: '/cloud/v5/font/list', tag, auth: 'user', summary: 'The user\'s fonts, newest first, paged by startIndex/maxCount (max 100000); delete=1 lists the font recycle bin',
    request: c.fontListRequest, response: c.fontListResult,
    signed: true,
    handler: (d, { user }) => fonts.list(user.id, d),
  });

  documentEndpoint(app, {
    method: 'post', path: '/cloud/v5/font/upload', tag, auth: 'user', summary: 'Multipart font upload (call style 5): only ttf, ttc, shx, checked by extension and content; optional fields codepage, bold, italic before `filedata`',
    bodyNote: 'multipart/form-data: codepage?, bold?, italic?, filedata (the font, last)', response: c.fontSchema,
  });
  app.post('/cloud/v5/font/upload', async (req) => {
    if (!req.user) throw appError('auth.notSignedIn');
    if (!req.isMultipart()) throw appError('request.invalid');
    const part = await req.file();
    if (!part) throw appError('request.invalid');
    const field = (n: string) => {
      const f = part.fields[n] as { value?: unknown } | undefined;
      return f && 'value' in f ? String(f.value) : (req.query as Record<string, string | undefined>)[n];
    };
    const opts = z
      .object({ codepage: c.fontEditRequest.shape.codepage, bold: c.fontEditRequest.shape.bold, italic: c.fontEditRequest.shape.italic })
      .parse({ codepage: field('codepage') || undefined, bold: field('bold'), italic: field('italic') });
    return ok(await fonts.upload(req.user, part.filename, part.file, opts));
  });

  defineEndpoint(app, {
    path: '/cloud/v5/font/public', tag, auth: 'user', summary: 'Publish a font (every user\'s drawings may then use it) or unpublish it: ispublic 1/0, omitted toggles',
    request: c.fontPublicRequest, response: c.fontSchema,
    signed: true,
    handler: (d, { user }) => fonts.setPublic(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/font/rename', tag, auth: 'user', summary: 'Rename a font (the extension is kept; a taken name is refused)',
    request: c.fontRenameRequest, response: c.fontSchema,
    signed: true,
    handler: (d, { user }) => fonts.rename(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/font/edit', tag, auth: 'user', summary: 'Edit name (required), code page (1, 38, 39, 40, 41, 42, 1200), bold, italic',
    request: c.fontEditRequest, response: c.fontSchema,
    signed: true,
    handler: (d, { user }) => fonts.edit(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/font/download', tag, auth: 'user', summary: 'Signed URL of one of the user\'s fonts',
    request: c.fontIdRequest, response: c.fontDownloadResult,
    signed: true,
    handler: (d, { user }) => fonts.download(user.id, d.id),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/font/restore', tag, auth: 'user', summary: 'Restore fonts from the font recycle bin (refused when over storage)',
    request: c.fontIdsRequest, response: z.object({ restored: z.number() }),
    signed: true,
    handler: (d, { user }) => fonts.restore(user, d.ids),
  });

  documentEndpoint(app, {
    method: 'post', path: '/cloud/v5/font/downloadBatch', tag, auth: 'user', summary: 'Zip of several fonts, streamed in the answer (call style 7); body {data:{ids}}, utoken in the query',
    bodyNote: 'application/json {data:{ids:[…]}} → application/zip', request: c.fontIdsRequest, envelope: 'none',
  });
  app.post('/cloud/v5/font/downloadBatch', async (req, reply) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const body = z.object({ data: c.fontIdsRequest }).parse(req.body ?? {});
    const entries = await fonts.batchEntries(req.user.id, body.data.ids);
    return sendStoredZip(reply, deps.storage, entries, 'fonts.zip');
  });

  documentEndpoint(app, {
    method: 'get', path: '/api/index/downloadFont', tag, auth: 'user', summary: 'Bytes of a font the user may use in drawings (their own, or a published one): query id, or name (case-insensitive, extension optional)',
    bodyNote: 'query id or name → font bytes', envelope: 'none',
  });
  const downloadFont = async (req: import('fastify').FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const src = { ...(req.query as object), ...(((req.body as { data?: object } | undefined)?.data) ?? {}) };
    const q = z.object({ id: z.string().min(1).max(64).optional(), fontId: z.string().min(1).max(64).optional(), name: z.string().min(1).max(255).optional() }).parse(src);
    if (!q.id && !q.fontId && !q.name) throw appError('request.invalid');
    const f = await fonts.readable(req.user.id, { id: q.id ?? q.fontId, name: q.name });
    reply
      .header('content-type', CONTENT_TYPES[f.type] ?? 'application/octet-stream')
      .header('content-disposition', attachmentDisposition(f.name))
      .header('etag', `"${f.hash}"`)
      .header('cache-control', 'private, max-age=3600')
      .header('x-font-name', encodeURIComponent(f.name));
    return reply.send(f.body);
  };
  app.get('/api/index/downloadFont', downloadFont);
  app.post('/api/index/downloadFont', downloadFont);
};
