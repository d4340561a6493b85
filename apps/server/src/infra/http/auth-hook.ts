import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isFormStyle } from './form-style.ts';
import { TICKET_COOKIE, type SessionsService, type SessionUser } from '../../modules/users/sessions.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    user: SessionUser | null;
    /** the ticket the request authenticated with (cookie or utoken) */
    ticket: string | null;
    clientType: string;
  }
}

export function ticketOf(req: FastifyRequest): string | null {
  const q = req.query as { utoken?: string } | undefined;
  // call style 1 names its ticket in the form; the cookie is not believed there (form-style.ts: no cross-site forms)
  if (isFormStyle(req)) return (req.body as { ticket?: string } | undefined)?.ticket || q?.utoken || null;
  return q?.utoken || (req.cookies?.[TICKET_COOKIE] as string | undefined) || (req.headers['x-utoken'] as string | undefined) || null;
}

/** Resolves who is asking, once per request: `utoken` query (API clients) or the ticket cookie (browser). */
export function registerAuthHook(app: FastifyInstance, sessions: SessionsService) {
  app.decorateRequest('user', null);
  app.decorateRequest('ticket', null);
  app.decorateRequest('clientType', 'Web_PC');
  app.addHook('preHandler', async (req) => {
    const body = req.body as { clientInfo?: { clientType?: string }; clientType?: unknown } | undefined;
    const formClientType = isFormStyle(req) && typeof body?.clientType === 'string' ? body.clientType : undefined;
    req.clientType = body?.clientInfo?.clientType ?? formClientType ?? (req.headers['x-client-type'] as string | undefined) ?? 'Web_PC';
    const ticket = ticketOf(req);
    if (!ticket) return;
    const user = await sessions.resolveSession(ticket);
    if (user) {
      req.user = user;
      req.ticket = ticket;
    }
  });
}
