import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { defineEndpoint, documentEndpoint } from '../../infra/http/endpoint.ts';
import { AppError, appError } from '../../infra/http/app-error.ts';
import type { RouteModule } from '../index.ts';
import { addDrawingAccess } from '../drawings/drawing-access.ts';
import { createThumbnailsService } from '../thumbnails/thumbnails.service.ts';
import { createLibraryService } from './library.service.ts';

/** The public library (spec sections 2–5, 7; paths documented in packages/contracts/src/library.ts). */
export const libraryRoutes: RouteModule = async (app, { deps }) => {
  const library = createLibraryService(deps);
  const thumbnails = createThumbnailsService(deps);
  const tag = 'library';

  // the viewer: any signed-in user may open a live public drawing; it renders with its owner's fonts
  addDrawingAccess(deps, async (req) => {
    if (!req.uid || req.shareToken || req.versionId) return undefined;
    const f = await library.repo.findPublicFile(req.fileId);
    if (!f || !f.blob_md5) return undefined;
    return { name: f.name, size: Number(f.size), freeze: f.freeze, blobMd5: f.blob_md5, fontsOwner: f.uid };
  });

  defineEndpoint(app, {
    path: '/cloud/v5/file/setFilePrivateType', tag, auth: 'user',
    summary: "Publish ('0') or make private ('1') the caller's drawings, all or none: only live non-folder drawings; public ones leave the used storage, private ones count again (past the total the account is frozen)",
    request: c.setPrivateTypeRequest, response: c.setPrivateTypeResult,
    handler: (d, { user }) => library.setPrivateType(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/queryMyPublicList', tag, auth: 'user', summary: 'The caller\'s public drawings, newest publication first',
    request: c.myPublicListRequest, response: c.publicListResult,
    handler: (d, { user }) => library.listMine(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/queryMyLikePublicList', tag, auth: 'user', summary: 'Public drawings the caller likes (latest like first); unpublished ones are hidden',
    request: c.myPublicListRequest, response: c.publicListResult,
    handler: (d, { user }) => library.listLiked(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/queryMyCollectionrecordList', tag, auth: 'user', summary: 'Public drawings the caller collected (latest first); unpublished ones are hidden',
    request: c.myPublicListRequest, response: c.publicListResult,
    handler: (d, { user }) => library.listCollected(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/list', tag, auth: 'user', summary: 'Everyone\'s public drawings: keywords search names, sort newest | likes | browses',
    request: c.publicListRequest, response: c.publicListResult,
    handler: (d, { user }) => library.listPublic(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/detail', tag, auth: 'user', summary: 'One public drawing with its counters; counts one browse',
    request: c.publicFileRequest, response: c.publicItemSchema,
    handler: (d, { user }) => library.detail(user.id, d.fileId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/like', tag, auth: 'user', summary: 'Like (like: true), unlike (false) or toggle (omitted) a public drawing',
    request: c.publicLikeRequest, response: c.publicLikeResult,
    handler: (d, { user }) => library.like(user, d.fileId, d.like),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/collect', tag, auth: 'user', summary: 'Collect (collect: true), remove (false) or toggle (omitted) a public drawing',
    request: c.publicCollectRequest, response: c.publicCollectResult,
    handler: (d, { user }) => library.collect(user, d.fileId, d.collect),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/message/add', tag, auth: 'user', summary: `Leave a message on a public drawing (1–${c.PUBLIC_MESSAGE_MAX} characters)`,
    request: c.publicMessageAddRequest, response: c.publicMessageSchema,
    handler: (d, { user }) => library.addMessage(user, d.fileId, d.content),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/message/list', tag, auth: 'user', summary: 'Messages on a public drawing, newest first',
    request: c.publicMessageListRequest, response: c.publicMessageListResult,
    handler: (d, { user }) => library.listMessages(user.id, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/public/message/delete', tag, auth: 'user', summary: 'Delete one of the caller\'s own messages',
    request: c.publicMessageDeleteRequest, response: z.object({ deleted: z.number() }),
    handler: (d, { user }) => library.deleteMessage(user, d.messageId),
  });

  documentEndpoint(app, {
    method: 'get', path: '/cloud/v5/public/thumb/{fileId}', tag, auth: 'user', envelope: 'none',
    summary: 'Thumbnail of a public drawing for any signed-in user (404 when it is not public or has none)',
  });
  app.get<{ Params: { fileId: string } }>('/cloud/v5/public/thumb/:fileId', async (req, reply) => {
    if (!req.user) throw appError('auth.notSignedIn');
    const f = await library.repo.findPublicFile(req.params.fileId);
    if (!f || !f.thumbkey) throw new AppError('item.notFound', [], 404);
    // the owner has a file showing it: open it as theirs
    const img = await thumbnails.open(f.uid, f.thumbkey);
    // short-lived: the drawing may be unpublished, and then this address must stop answering; a stand-in for a
    // missing variant (thumbnails.service open()) not kept at all
    reply.header('cache-control', img.standIn ? 'private, no-cache' : 'private, max-age=300').header('x-content-type-options', 'nosniff').type(img.contentType);
    if (img.size !== null) reply.header('content-length', img.size);
    return reply.send(img.body);
  });
};
