import type { FastifyRequest } from 'fastify';
import * as c from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createUnzipService } from './unzip.service.ts';

/**
 * Cloud decompression (issue 18): the caller's own archives only (another user's id answers as a missing file). The
 * tasks are listed, polled and cancelled through the download tasks' calls with taskType 2 (downloads.routes.ts).
 */
/**
 * The language that decides how a zip's legacy names are read (archive-names.ts: ko → EUC-KR, ja → Shift-JIS), not
 * narrowed to the UI's languages: clientInfo.language when it is Korean or Japanese, else the browser's first
 * Accept-Language (the web app sends its UI language, "en" for a Japanese browser, the UI having no Japanese).
 */
function namesLanguage(req: FastifyRequest): string | undefined {
  const ui = (req.body as { clientInfo?: { language?: string } } | undefined)?.clientInfo?.language || undefined;
  if (ui && /^(ja|ko)\b/i.test(ui)) return ui;
  return String(req.headers['accept-language'] ?? '').split(',')[0].split(';')[0].trim() || ui;
}

export const unzipRoutes: RouteModule = async (app, { deps }) => {
  const unzip = createUnzipService(deps);
  const tag = 'unzip';
  const P = c.UNZIP_PATHS;

  defineEndpoint(app, {
    path: P.detectUnzip, tag, auth: 'user',
    summary: 'Checks an own archive before decompressing: its format (from its bytes), whether a folder of its name exists next to it (hasRepeat, folderId) and the renamed one mode "new" would make, whether a password is needed, entries and unpacked size, and its unfinished task. Refused: not an archive (unzip.notArchive), damaged (unzip.damaged), over the operator\'s limits (unzip.tooManyEntries, unzip.tooLarge, unzip.ratio), a format this server cannot read yet (unzip.failed)',
    request: c.detectUnzipRequest, response: c.detectUnzipResult,
    handler: (d, { user, req }) => unzip.detect(user.id, d.fileId, namesLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.unzip, tag, auth: 'user',
    summary: 'Queues the decompression of an own archive into a folder of its name next to it (mode "new": a renamed folder when that name is taken; without it unzip.folderExists), answering the task (taskType 2). One unfinished task per archive (unzip.alreadyQueued), except a task waiting for a password (status 6, or 5 after a wrong one): the password given continues it. Refused while frozen (account.frozen). The task ends 2 done or 3 failed with the reason in response (unzip.damaged, unzip.notArchive, unzip.tooLarge, unzip.tooManyEntries, unzip.ratio, upload.noSpace …); a failed or cancelled task leaves nothing behind and the storage used as it was',
    request: c.unzipRequest, response: c.unzipTaskSchema,
    handler: (d, { user, req }) => unzip.request(user, d, namesLanguage(req)),
  });
  defineEndpoint(app, {
    path: P.unzipHasPassword, tag, auth: 'user',
    summary: 'Whether a password opens an own archive (its first encrypted entry is checked; nothing is extracted)',
    request: c.unzipHasPasswordRequest, response: c.unzipHasPasswordResult,
    handler: (d, { user }) => unzip.hasPassword(user.id, d.fileId, d.password),
  });
};
