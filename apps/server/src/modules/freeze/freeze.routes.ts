import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { serverMessage } from '@cadcloud/i18n';
import { AppError } from '../../infra/http/app-error.ts';
import { defineEndpoint, documentEndpoint } from '../../infra/http/endpoint.ts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import type { RouteModule } from '../index.ts';
import { createFreezeService } from './freeze.service.ts';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/** Freeze state and the one-time free unfreeze (issue 22 part 5; spec sections 4 and 5). */
export const freezeRoutes: RouteModule = async (app, { deps }) => {
  const freeze = createFreezeService(deps);
  const tag = 'freeze';
  const P = c.ORDER_PATHS;

  defineEndpoint(app, {
    path: P.freezeState, tag, auth: 'user',
    summary: "The caller's freeze state, brought up to date first (spec section 4: frozen while the stored files exceed the space): since when, when the frozen files are cleared (3 months after), used and total space, and whether the one-time free unfreeze is offered (accounts registered before 2017-10-01 that have not used it)",
    request: z.object({}).passthrough(), response: c.freezeStateResult,
    handler: (_d, { user }) => freeze.state(user.id),
  });
  defineEndpoint(app, {
    path: P.freeUnfreeze, tag, auth: 'user',
    summary: "Asks for the one-time free unfreeze (spec sections 4, 5): the e-mail is required (unfreeze.emailRequired), valid (unfreeze.emailInvalid) and the account's own; the account must be frozen, registered before 2017-10-01 and not have used it, else 'Failed to unfreeze' (unfreeze.failed, bizData.reason). Sends a mail with a signed link valid 24 h; following it unfreezes the account for 1 month",
    request: c.freeUnfreezeRequest, response: c.freeUnfreezeResult,
    handler: (d, { user, req }) => freeze.requestFreeUnfreeze(user.id, d.email, requestLanguage(req)),
  });

  documentEndpoint(app, {
    method: 'get', path: P.freeUnfreezeConfirm, tag, auth: 'none', envelope: 'none',
    summary: "The confirmation link of the free-unfreeze mail (?token=): unfreezes the account for 1 month, once, and answers a short HTML page ('Failed to unfreeze' when the link is forged, expired or already used)",
  });
  app.get(P.freeUnfreezeConfirm, async (req, reply) => {
    const token = String((req.query as { token?: unknown }).token ?? '');
    const lang = requestLanguage(req);
    let text: string;
    let ok = false;
    try {
      const r = await freeze.confirmFreeUnfreeze(token);
      ok = true;
      text = `${serverMessage('unfreeze.done', lang, [new Date(r.until).toISOString().slice(0, 10)])}`;
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      text = serverMessage(c.ERRORS['unfreeze.failed'].key, lang);
    }
    reply.code(ok ? 200 : 400).type('text/html; charset=utf-8');
    return `<!doctype html><meta charset="utf-8"><title>CADCloud</title><p>${escapeHtml(text)}</p><p><a href="/">CADCloud</a></p>`;
  });
};
