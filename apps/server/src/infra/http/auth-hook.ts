import type { FastifyInstance, FastifyRequest } from 'fastify';
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
  return q?.utoken || (req.cookies?.[TICKET_COOKIE] as string | undefined) || (req.headers['x-utoken'] as string | undefined) || null;
}

/** Resolves who is asking, once per request: `utoken` query (API clients) or the ticket cookie (browser). */
export function registerAuthHook(app: FastifyInstance, sessions: SessionsService) {
  app.decorateRequest('user', null);
  app.decorateRequest('ticket', null);
  app.decorateRequest('clientType', 'Web_PC');
  app.addHook('preHandler', async (req) => {
    const body = req.body as { clientInfo?: { clientType?: string } } | undefined;
    req.clientType = body?.clientInfo?.clientType ?? (req.headers['x-client-type'] as string | undefined) ?? 'Web_PC';
    const ticket = ticketOf(req);
    if (!ticket) return;
    const user = await sessions.resolveSession(ticket);
    if (user) {
      req.user = user;
      req.ticket = ticket;
    }
  });
}
