import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { normalizeLanguage, ssoText, type Language } from '@cadcloud/i18n';
import type { SsoDb, SsoMailer } from './sso-db.ts';
import { createAdapterClass } from './oidc-adapter.ts';
import { AccountError, createAccountsService } from './accounts.ts';
import { errorBox, esc, field, page } from './pages.ts';
import { createAttemptLimiter } from './attempt-limiter.ts';

export interface SsoClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export interface SsoServerOptions {
  db: SsoDb;
  mailer: SsoMailer;
  issuer: string;
  clients: SsoClient[];
  /** signing keys for cookies; keep them across restarts */
  cookieKeys: string[];
  /** private JWKs for ID tokens; keep them across restarts */
  jwks: { keys: Record<string, unknown>[] };
  /** where "back to the product" links go */
  productUrl: string;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const c of req) {
    size += c.length;
    if (size > 64 * 1024) throw new Error('form too large');
    chunks.push(c);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function langOf(req: http.IncomingMessage, url: URL): Language {
  const cookie = /(?:^|;\s*)sso_lang=(\w+)/.exec(req.headers.cookie ?? '')?.[1];
  return normalizeLanguage(url.searchParams.get('lang') ?? cookie ?? String(req.headers['accept-language'] ?? '').split(',')[0]);
}

function send(res: http.ServerResponse, status: number, html: string, lang?: Language) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-frame-options', 'DENY');
  if (lang) res.setHeader('set-cookie', `sso_lang=${lang}; Path=/; SameSite=Lax; Max-Age=31536000`);
  res.end(html);
}

function redirect(res: http.ServerResponse, to: string) {
  res.statusCode = 303;
  res.setHeader('location', to);
  res.end();
}

/**
 * The separate login site: an OpenID Connect provider (oidc-provider) with our own sign-in, registration
 * and password-reset screens. The product is one of its clients.
 */
export async function createSsoServer(o: SsoServerOptions) {
  const accounts = createAccountsService(o.db);
  const limiter = createAttemptLimiter({ max: 10, windowMs: 15 * 60_000 });

  const configuration: Configuration = {
    adapter: createAdapterClass(o.db) as any,
    clients: o.clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      post_logout_redirect_uris: c.postLogoutRedirectUris,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    async findAccount(_ctx, id) {
      const a = await accounts.findById(id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, email: a.email, email_verified: false, name: a.name }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: o.cookieKeys },
    jwks: o.jwks as any,
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        async logoutSource(ctx, form) {
          const lang = normalizeLanguage(String(ctx.get('accept-language')).split(',')[0]);
          // the product asked for sign-out: confirm without a click, keep a button for no-JS browsers
          ctx.body = page(lang, ssoText(lang, 'signOut'), `${form}<p>${esc(ssoText(lang, 'signOutConfirm'))}</p><button form="op.logoutForm" name="logout" value="yes">${esc(ssoText(lang, 'signOut'))}</button><script>var f=document.getElementById('op.logoutForm');var i=document.createElement('input');i.type='hidden';i.name='logout';i.value='yes';f.appendChild(i);f.submit()</script>`);
        },
        async postLogoutSuccessSource(ctx) {
          const lang = normalizeLanguage(String(ctx.get('accept-language')).split(',')[0]);
          ctx.body = page(lang, ssoText(lang, 'signOut'), `<div class="ok">${esc(ssoText(lang, 'signedOut'))}</div><div class="links"><a href="${esc(o.productUrl)}">${esc(ssoText(lang, 'signIn'))}</a></div>`);
        },
      },
    },
    // the product is first-party: no consent screen
    async loadExistingGrant(ctx) {
      const grantId = ctx.oidc.result?.consent?.grantId || ctx.oidc.session!.grantIdFor(ctx.oidc.client!.clientId);
      if (grantId) return ctx.oidc.provider.Grant.find(grantId);
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    async renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = page('en', 'Error', `<div class="err">${esc(String(out.error_description ?? out.error))}</div><div class="links"><a href="${esc(o.productUrl)}">CADCloud</a></div>`);
    },
    ttl: { Session: 30 * 24 * 3600, Grant: 30 * 24 * 3600, Interaction: 3600, AuthorizationCode: 600, AccessToken: 3600, IdToken: 3600 },
  };
  const provider = new Provider(o.issuer, configuration);
  provider.proxy = true;
  const oidc = provider.callback();

  function loginPage(lang: Language, uid: string, email = '', error?: string) {
    return page(
      lang,
      ssoText(lang, 'signIn'),
      `${errorBox(lang, error)}<form method="post" action="/interaction/${esc(uid)}/login" autocomplete="on">${field(lang, 'email', 'email', 'email', email, 'required autofocus autocomplete="username"')}${field(lang, 'password', 'password', 'password', '', 'required autocomplete="current-password"')}<button type="submit">${esc(ssoText(lang, 'signIn'))}</button></form>
<div class="links"><a href="/interaction/${esc(uid)}/register">${esc(ssoText(lang, 'noAccount'))} ${esc(ssoText(lang, 'register'))}</a><a href="/forgot?uid=${esc(uid)}">${esc(ssoText(lang, 'forgot'))}</a></div>`,
      { path: `/interaction/${uid}?` },
    );
  }

  function registerPage(lang: Language, uid: string, v: { email?: string; name?: string } = {}, error?: string) {
    return page(
      lang,
      ssoText(lang, 'register'),
      `${errorBox(lang, error)}<form method="post" action="/interaction/${esc(uid)}/register">${field(lang, 'email', 'email', 'email', v.email ?? '', 'required autofocus autocomplete="email"')}${field(lang, 'name', 'name', 'text', v.name ?? '', 'autocomplete="nickname"')}${field(lang, 'password', 'password', 'password', '', 'required minlength="8" autocomplete="new-password"')}${field(lang, 'confirm', 'confirmPassword', 'password', '', 'required minlength="8" autocomplete="new-password"')}<button type="submit">${esc(ssoText(lang, 'register'))}</button></form>
<div class="links"><a href="/interaction/${esc(uid)}">${esc(ssoText(lang, 'haveAccount'))} ${esc(ssoText(lang, 'signIn'))}</a></div>`,
      { path: `/interaction/${uid}/register?` },
    );
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', o.issuer);
    let lang = langOf(req, url);
    const setLang = url.searchParams.has('lang') ? lang : undefined;
    const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login|\/register)?$/.exec(url.pathname);
    if (m) {
      const [, uid, action] = m;
      let details;
      try {
        details = await provider.interactionDetails(req, res);
      } catch {
        send(res, 400, page(lang, 'Error', `<div class="err">${esc(ssoText(lang, 'err.reset.invalid'))}</div><div class="links"><a href="${esc(o.productUrl)}">CADCloud</a></div>`));
        return true;
      }
      if (details.uid !== uid) return false;
      const uiLocale = typeof details.params.ui_locales === 'string' ? details.params.ui_locales.split(' ')[0] : undefined;
      if (!url.searchParams.has('lang') && !/sso_lang=/.test(req.headers.cookie ?? '') && uiLocale) lang = normalizeLanguage(uiLocale);
      if (details.prompt.name !== 'login') {
        // consent is implicit for the first-party product
        const grant = details.grantId ? (await provider.Grant.find(details.grantId))! : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
        const missing = (details.prompt.details.missingOIDCScope as string[] | undefined) ?? [];
        if (missing.length) grant.addOIDCScope(missing.join(' '));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
        return true;
      }
      if (req.method === 'GET' && !action) return send(res, 200, loginPage(lang, uid), setLang), true;
      if (req.method === 'GET' && action === '/register') return send(res, 200, registerPage(lang, uid), setLang), true;
      if (req.method === 'POST' && action === '/login') {
        const form = await readForm(req);
        const email = form.get('email') ?? '';
        const key = `${email.toLowerCase()}|${req.socket.remoteAddress}`;
        if (limiter.blocked(key)) return send(res, 429, loginPage(lang, uid, email, 'tooMany')), true;
        const account = await accounts.verifyPassword(email, form.get('password') ?? '');
        if (!account) {
          limiter.fail(key);
          return send(res, 200, loginPage(lang, uid, email, 'credentials.wrong')), true;
        }
        limiter.reset(key);
        await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
        return true;
      }
      if (req.method === 'POST' && action === '/register') {
        const form = await readForm(req);
        const v = { email: form.get('email') ?? '', name: form.get('name') ?? '' };
        if ((form.get('password') ?? '') !== (form.get('confirm') ?? '')) return send(res, 200, registerPage(lang, uid, v, 'password.mismatch')), true;
        try {
          const account = await accounts.createAccount({ ...v, password: form.get('password') ?? '' });
          await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
        } catch (e) {
          if (!(e instanceof AccountError)) throw e;
          send(res, 200, registerPage(lang, uid, v, e.code));
        }
        return true;
      }
      return false;
    }
    if (url.pathname === '/forgot') {
      // the "back" link is built from it: an interaction id or nothing, never a path of the caller's choosing
      const uid = /^[A-Za-z0-9_-]{1,64}$/.exec(url.searchParams.get('uid') ?? '')?.[0] ?? '';
      const back = uid ? `/interaction/${esc(uid)}` : esc(o.productUrl);
      if (req.method === 'POST') {
        const form = await readForm(req);
        const email = form.get('email') ?? '';
        const key = `reset|${req.socket.remoteAddress}`;
        if (limiter.blocked(key)) return send(res, 429, page(lang, ssoText(lang, 'resetTitle'), errorBox(lang, 'tooMany'))), true;
        limiter.fail(key);
        const account = await accounts.findByEmail(email);
        if (account) {
          const token = await accounts.createResetToken(account.id);
          const link = `${o.issuer}/reset?token=${token}&lang=${lang}`;
          await o.mailer.send({ to: account.email, subject: ssoText(lang, 'mail.reset.subject'), text: ssoText(lang, 'mail.reset.body', [link]) });
        }
        // same answer whether or not the address is registered
        return send(res, 200, page(lang, ssoText(lang, 'resetTitle'), `<div class="ok">${esc(ssoText(lang, 'resetSent'))}</div><div class="links"><a href="${back}">${esc(ssoText(lang, 'back'))}</a></div>`)), true;
      }
      return send(res, 200, page(lang, ssoText(lang, 'resetTitle'), `<form method="post">${field(lang, 'email', 'email', 'email', '', 'required autofocus')}<button type="submit">${esc(ssoText(lang, 'sendReset'))}</button></form><div class="links"><a href="${back}">${esc(ssoText(lang, 'back'))}</a></div>`, { path: `/forgot?uid=${uid}` }), setLang), true;
    }
    if (url.pathname === '/reset') {
      const token = url.searchParams.get('token') ?? '';
      const form = (error?: string) => page(lang, ssoText(lang, 'resetTitle'), `${errorBox(lang, error)}<form method="post" action="/reset?token=${esc(token)}">${field(lang, 'password', 'newPassword', 'password', '', 'required minlength="8" autofocus autocomplete="new-password"')}${field(lang, 'confirm', 'confirmPassword', 'password', '', 'required minlength="8" autocomplete="new-password"')}<button type="submit">${esc(ssoText(lang, 'setPassword'))}</button></form>`);
      if (req.method === 'POST') {
        const f = await readForm(req);
        if ((f.get('password') ?? '') !== (f.get('confirm') ?? '')) return send(res, 200, form('password.mismatch')), true;
        try {
          await accounts.resetPassword(token, f.get('password') ?? '');
        } catch (e) {
          if (!(e instanceof AccountError)) throw e;
          return send(res, 200, form(e.code)), true;
        }
        return send(res, 200, page(lang, ssoText(lang, 'resetTitle'), `<div class="ok">${esc(ssoText(lang, 'resetDone'))}</div><div class="links"><a href="${esc(o.productUrl)}">${esc(ssoText(lang, 'signIn'))}</a></div>`)), true;
      }
      if (!(await accounts.isResetTokenValid(token))) return send(res, 200, page(lang, ssoText(lang, 'resetTitle'), errorBox(lang, 'reset.invalid'))), true;
      return send(res, 200, form(), setLang), true;
    }
    if (url.pathname === '/' && req.method === 'GET') return redirect(res, o.productUrl), true;
    return false;
  }

  const server = http.createServer((req, res) => {
    handle(req, res)
      .then((handled) => {
        if (!handled) oidc(req, res);
      })
      .catch((err) => {
        console.error('sso error', err);
        if (!res.headersSent) send(res, 500, page('en', 'Error', '<div class="err">Internal error</div>'));
      });
  });

  return {
    provider,
    accounts,
    server,
    async listen(port: number, host = '127.0.0.1') {
      await new Promise<void>((r) => server.listen(port, host, r));
      return (server.address() as AddressInfo).port;
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

export type SsoServer = Awaited<ReturnType<typeof createSsoServer>>;
