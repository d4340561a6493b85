import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import * as c from '@cadcloud/contracts';
import { itemSchema } from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { addDrawingAccess } from '../drawings/drawing-access.ts';
import type { RouteModule } from '../index.ts';
import { createSharesService } from './shares.service.ts';

/** Where the share addresses point: the host the sharer's browser used (behind a proxy: X-Forwarded-*), else PUBLIC_URL. */
function baseUrlOf(req: FastifyRequest, fallback: string): string {
  const host = req.host;
  return host && /^[A-Za-z0-9.\-:[\]]+$/.test(host) ? `${req.protocol}://${host}` : fallback;
}

/** A share token sent in the data, or as header x-share-token. */
function tokenOf(req: FastifyRequest, fromData?: string): string | undefined {
  const h = req.headers['x-share-token'];
  return fromData || (typeof h === 'string' && h ? h : undefined);
}

/**
 * Shares (issue 4): the paths of packages/contracts/src/shares.ts. Sharer calls need a ticket; getInfoByRand,
 * extract, files, download and getProductItemById are for visitors (a share token instead of a ticket).
 */
export const sharesRoutes: RouteModule = async (app, { deps }) => {
  const shares = createSharesService(deps);
  const tag = 'shares';
  addDrawingAccess(deps, (req) => shares.drawingAccess(req));

  defineEndpoint(app, {
    path: '/cloud/v5/share/create', tag, auth: 'user',
    summary: "Share own private files/folders by link (kind link) or as a temporary share (easy): 4-digit code generated, password '' or 4 letters/digits, valid days 0–99 (0 never expires), rights download/save/notes",
    // validDays checked by the service, so a bad value answers the spec's 'Please enter a positive integer 0-99!'
    request: c.shareCreateRequest.extend({ validDays: z.unknown().optional() }), response: c.shareSchema,
    handler: (d, { req, user }) => shares.create(user, d, baseUrlOf(req, deps.config.publicUrl)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/list', tag, auth: 'user', summary: "The caller's shares, newest first, with state and remaining time",
    request: c.shareListRequest, response: c.shareListResult,
    handler: (d, { req, user }) => shares.list(user.id, d, baseUrlOf(req, deps.config.publicUrl)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/update', tag, auth: 'user',
    summary: "Change an own share: password 4 digits ('' removes it); validDays 0–99 sets the expiry to share time + validDays (0 never expires)",
    request: c.shareUpdateRequest.extend({ validDays: z.unknown().optional() }), response: c.shareSchema,
    handler: (d, { req, user }) => shares.update(user.id, d, baseUrlOf(req, deps.config.publicUrl)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/cancel', tag, auth: 'user', summary: 'Cancel own shares: their links and tokens stop working at once',
    request: c.shareIdsRequest, response: z.object({ cancelled: z.number() }),
    handler: (d, { user }) => shares.cancel(user.id, d.shareIds),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/email', tag, auth: 'user', summary: 'Send an own active share (link, code, password) by e-mail in the given language (zh, en, ko, de)',
    request: c.shareEmailRequest, response: z.object({ sent: z.number() }),
    handler: (d, { req, user }) => shares.email(user.id, { ...d, language: d.language ?? requestLanguage(req) }, baseUrlOf(req, deps.config.publicUrl)),
  });

  for (const path of ['/cloud/v5/share/getInfoByRand', '/cloud/v5/easyShare/getInfoByRand']) {
    defineEndpoint(app, {
      path, tag, auth: 'none', summary: "Public facts of a share by its rand (no ticket); 'This share no longer exists' with bizData.reason cancelled/expired/deleted",
      request: c.shareRandRequest, response: c.sharePublicInfo,
      handler: (d) => shares.infoByRand(d.rand),
    });
  }
  defineEndpoint(app, {
    path: '/cloud/v5/share/extract', tag, auth: 'none',
    summary: 'Code (and password when set) → share token. 10 failures of one client in 15 minutes lock it out of the share for 15 minutes; 100 of anyone lock the share for 15 minutes',
    request: c.shareExtractRequest, response: c.shareAccessResult,
    handler: (d, { req }) => shares.extract(d, req.ip || 'unknown'),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/files', tag, auth: 'none', summary: 'Browse a share: its top level, or a folder inside it (share token)',
    request: c.shareFilesRequest, response: c.shareFilesResult,
    handler: (d) => shares.files(d.shareToken, d.folderId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/download', tag, auth: 'none', summary: 'Signed URL of a file in a share that allows downloading (share token)',
    request: c.shareFileRequest, response: c.shareDownloadResult,
    handler: (d, { req }) => shares.download(tokenOf(req, d.shareToken) ?? '', d.fileId),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/share/copyFoldersAndFiles', tag, auth: 'user',
    summary: "Save shared items (folders recursively) to the caller's folder: same bytes, storage counted for the whole copy, clashing names get (1)",
    request: c.shareCopyRequest, response: z.object({ copied: z.number(), items: z.array(z.string()) }),
    handler: (d, { user }) => shares.copy(user, d),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/file/getProductItemById', tag, auth: 'none', summary: 'Item info without a ticket: a public item, or one reachable through the given share token',
    request: c.shareFileRequest, response: itemSchema,
    handler: (d, { req }) => shares.productItem(d.fileId, tokenOf(req, d.shareToken)),
  });
};
