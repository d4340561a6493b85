import * as client from 'openid-client';
import { z } from 'zod';
import type { FastifyReply } from 'fastify';
import { documentEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { cookieOptions, createSessionsService, TICKET_COOKIE } from '../users/sessions.service.ts';
import { createUsersService } from '../users/users.service.ts';
import { relyingParty } from './auth.config.ts';
import { safeReturnTo } from './return-to.ts';
import { ERRORS } from '@cadcloud/contracts';
import { serverMessage } from '@cadcloud/i18n';
import { requestLanguage } from '../../infra/http/error-handler.ts';

const TX_COOKIE = 'oidc_tx';

export const authRoutes: RouteModule = async (app, { deps }) => {
  const rp = relyingParty(deps.config);
  const sessions = createSessionsService(deps);
  const users = createUsersService(deps);
  const cookieOpts = cookieOptions(deps.config);
  let discovered: Promise<client.Configuration> | null = null;

  // discovered at the first sign-in, not at start-up: the server starts even while the login site is down
  function oidc() {
    discovered ??= client
      .discovery(new URL(rp.issuer), rp.clientId, rp.clientSecret, undefined, rp.issuer.startsWith('http:') ? { execute: [client.allowInsecureRequests] } : undefined)
      .catch((e) => {
        discovered = null;
        throw e;
      });
    return discovered;
  }

  documentEndpoint(app, { method: 'get', path: '/api/auth/login', tag: 'auth', auth: 'none', envelope: 'none', summary: 'Redirects to the login site; ?returnTo=/yun/... comes back there signed in' });
  app.get('/api/auth/login', async (req, reply) => {
    // lenient: a sign-in link with an odd parameter still signs in (the address falls back, the language is dropped)
    const q = z.object({ returnTo: z.unknown().optional(), clientType: z.unknown().optional(), lang: z.enum(['zh', 'en', 'ko', 'de']).optional().catch(undefined) }).parse(req.query);
    const config = await oidc();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const tx = JSON.stringify({ verifier, state, returnTo: safeReturnTo(q.returnTo), clientType: q.clientType === 'Web_H5' ? 'Web_H5' : 'Web_PC' });
    reply.setCookie(TX_COOKIE, tx, { ...cookieOpts, signed: true, maxAge: 900 });
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: rp.redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      // the login site speaks the language the user chose in the product
      ...(q.lang ? { ui_locales: q.lang } : {}),
    });
    return reply.redirect(url.href, 302);
  });

  documentEndpoint(app, { method: 'get', path: '/api/auth/callback', tag: 'auth', auth: 'none', envelope: 'none', summary: 'OpenID Connect redirect target: sets the ticket cookie' });
  app.get('/api/auth/callback', async (req, reply) => {
    const raw = req.cookies[TX_COOKIE];
    const unsigned = raw ? req.unsignCookie(raw) : null;
    if (!unsigned?.valid || !unsigned.value) return reply.redirect('/api/auth/login', 302);
    const tx = JSON.parse(unsigned.value) as { verifier: string; state: string; returnTo: string; clientType: string };
    reply.clearCookie(TX_COOKIE, cookieOpts);
    // checked before the code is spent: nothing after the exchange may fail on the address
    const returnTo = safeReturnTo(tx.returnTo);
    const config = await oidc();
    const current = new URL(req.url, deps.config.publicUrl);
    const tokens = await client.authorizationCodeGrant(config, current, { pkceCodeVerifier: tx.verifier, expectedState: tx.state });
    const sub = tokens.claims()!.sub;
    const info = await client.fetchUserInfo(config, tokens.access_token, sub);
    const user = await users.findOrCreateBySso({ sub, email: String(info.email ?? `${sub}@unknown`), name: info.name as string | undefined });
    if (user.disabled_at != null) {
      // a browser came here: a page in its language, not the API's JSON (the client-token path answers JSON)
      const msg = serverMessage(ERRORS['auth.accountDisabled'].key, requestLanguage(req));
      return reply.code(403).type('text/html; charset=utf-8').send(`<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>CADCloud</title><p style="font:16px sans-serif;margin:40px auto;max-width:480px">${msg.replace(/[<&]/g, (c) => (c === '<' ? '&lt;' : '&amp;'))}</p>`);
    }
    const session = await sessions.createSession(user.id, tx.clientType);
    setTicket(reply, session.ticket, session.expiresAt);
    // the id token lets the login site end its own session without asking at sign-out
    if (tokens.id_token) reply.setCookie('id_hint', tokens.id_token, { ...cookieOpts, signed: true, maxAge: Math.floor((session.expiresAt - Date.now()) / 1000) });
    return reply.redirect(returnTo, 302);
  });

  function setTicket(reply: FastifyReply, ticket: string, expiresAt: number) {
    reply.setCookie(TICKET_COOKIE, ticket, { ...cookieOpts, maxAge: Math.floor((expiresAt - Date.now()) / 1000) });
  }

  documentEndpoint(app, { method: 'get', path: '/api/auth/logout', tag: 'auth', auth: 'none', envelope: 'none', summary: 'Ends the session, clears the cookie and signs out of the login site' });
  app.get('/api/auth/logout', async (req, reply) => {
    if (req.ticket) await sessions.endSession(req.ticket);
    reply.clearCookie(TICKET_COOKIE, cookieOpts);
    const hintRaw = req.cookies.id_hint;
    const hint = hintRaw ? req.unsignCookie(hintRaw) : null;
    reply.clearCookie('id_hint', cookieOpts);
    try {
      const config = await oidc();
      const url = client.buildEndSessionUrl(config, { post_logout_redirect_uri: rp.postLogoutRedirectUri, client_id: rp.clientId, ...(hint?.valid && hint.value ? { id_token_hint: hint.value } : {}) });
      return reply.redirect(url.href, 302);
    } catch {
      return reply.redirect('/', 302);
    }
  });
};
