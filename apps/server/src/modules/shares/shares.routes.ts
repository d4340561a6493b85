import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import * as c from '@cadcloud/contracts';
import { itemSchema } from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { addDrawingAccess } from '../drawings/drawing-access.ts';
import type { RouteModule } from '../index.ts';
import { createSharesService } from './shares.service.ts';
import { clientKey } from './client-key.ts';

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
  shares.registerGrants();

  defineEndpoint(app, {
    path: '/cloud/v5/share/create', tag, auth: 'user',
    summary: "Share own private files/folders by link (kind link) or as a temporary share (easy): a code of codeKind generated (digits4, digits6, alnum8; omitted: the shortest the validity allows; a code too short for the validity is refused, see contracts share-extraction.ts), password '' or 4 letters/digits, valid days 0–99 (0 never expires), rights download/save/notes",
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
    path: '/cloud/v5/share/email', tag, auth: 'user',
    summary: `Send an own active share (link, code, password) by e-mail in the given language (zh, en, ko, de): at most ${c.SHARE_EMAIL_RECIPIENTS_MAX} addresses a call, SHARE_EMAIL_PER_HOUR / SHARE_EMAIL_PER_DAY messages per user ('email send fail' with the reason); fixed sender and subject, the link on PUBLIC_URL`,
    request: c.shareEmailRequest, response: z.object({ sent: z.number() }),
    handler: (d, { req, user }) => shares.email(user.id, { ...d, language: d.language ?? requestLanguage(req) }),
  });

  for (const path of ['/cloud/v5/share/getInfoByRand', '/cloud/v5/easyShare/getInfoByRand']) {
    defineEndpoint(app, {
      path, tag, auth: 'none', summary: "Public facts of a share by its rand (no ticket); 'This share no longer exists' with bizData.reason cancelled/expired/deleted",
      request: c.shareRandRequest, response: c.sharePublicInfo,
      handler: (d) => shares.infoByRand(d.rand),
    });
  }
  defineEndpoint(app, {
    path: '/cloud/v5/share/challenge', tag, auth: 'none',
    summary: "A proof-of-work challenge for share/extract: find a proof (1–32 of 0-9a-z) with SHA-256(challenge + ':' + proof) starting with `bits` zero bits (0: no proof needed now); valid 15 minutes, used once",
    request: c.shareRandRequest, response: c.shareChallengeResult,
    handler: (d) => shares.challenge(d.rand),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/extract', tag, auth: 'none',
    summary: "Code (and password when set) → share token. Per client (IPv4 address, IPv6 /64): 3 wrong codes, then 1, 2, 4 … s (≤ 1 h) between attempts ('try again in N s', bizData.retryAfter). Per share: after 3 recent wrong codes an attempt needs a proof of work (share/challenge; share.proofRequired with bizData.bits), one more bit for every 2 further ones. A right code with a valid proof is always accepted",
    request: c.shareExtractRequest, response: c.shareAccessResult,
    handler: (d, { req }) => shares.extract(d, clientKey(req.ip)),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/files', tag, auth: 'none', summary: "Browse a share: its top level, or a folder inside it (share token; a group share's token only with its member's session)",
    request: c.shareFilesRequest, response: c.shareFilesResult,
    handler: (d, { user }) => shares.files(d.shareToken, d.folderId, user?.id),
  });
  defineEndpoint(app, {
    path: '/cloud/v5/share/download', tag, auth: 'none', summary: 'A download link (valid minutes, checked again when used) of a file in a share that allows downloading (share token)',
    request: c.shareFileRequest, response: c.shareDownloadResult,
    handler: (d, { req, user }) => shares.download(tokenOf(req, d.shareToken) ?? '', d.fileId, user?.id),
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
    handler: (d, { req, user }) => shares.productItem(d.fileId, tokenOf(req, d.shareToken), user?.id),
  });
};
