import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { normalizeLanguage, ssoText, type Language } from '@cadcloud/i18n';
import { brandIconSvg, webManifest } from '@cadcloud/contracts/brand';
import type { SsoDb, SsoMailer } from './sso-db.ts';
import { createAdapterClass } from './oidc-adapter.ts';
import { AccountError, createAccountsService, EMAIL_RE, hashPassword } from './accounts.ts';
import { errorBox, esc, field, page } from './pages.ts';
import { createAttemptLimiter, loginAttemptKey } from './attempt-limiter.ts';
import { clientKey } from './client-key.ts';
import { createRegistrationTokens } from './registration-token.ts';

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
  /**
   * Whether a peer is one of the operator's reverse proxies (TRUSTED_PROXIES): only then are its
   * X-Forwarded-For/-Proto/-Host believed. Default: nobody.
   */
  trustProxy?: (address: string) => boolean;
  /** Secure on every cookie of the login site (default: when the issuer is https) */
  cookieSecure?: boolean;
  /** After a reset or change of password: end the account's sessions in the product too */
  onPasswordChanged?: (accountId: string) => Promise<void>;
  /** How long a client may take: headers, the whole request, an idle kept-alive connection */
  timeouts?: { headersMs: number; requestMs: number; keepAliveMs: number };
}

/** The forwarded headers a peer we do not trust may not set. */
const FORWARDED_HEADERS = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'];

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

function send(res: http.ServerResponse, status: number, html: string, lang?: Language, secure = false) {
  res.statusCode = status;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.setHeader('x-frame-options', 'DENY');
  if (lang) res.setHeader('set-cookie', `sso_lang=${lang}; Path=/; SameSite=Lax; Max-Age=31536000${secure ? '; Secure' : ''}`);
  res.end(html);
}

/** The icon (also at /favicon.ico, where browsers look without a link) and the manifest, the product's own. */
const BRAND_ASSETS: Record<string, { type: string; body: string }> = {
  '/favicon.svg': { type: 'image/svg+xml', body: brandIconSvg },
  '/favicon.ico': { type: 'image/svg+xml', body: brandIconSvg },
  '/manifest.webmanifest': { type: 'application/manifest+json', body: webManifest({ name: 'CADCloud', shortName: 'CADCloud', startUrl: '/' }) },
};

function sendAsset(res: http.ServerResponse, method: string, a: { type: string; body: string }) {
  res.statusCode = 200;
  res.setHeader('content-type', a.type);
  res.setHeader('cache-control', 'public, max-age=86400');
  res.end(method === 'HEAD' ? undefined : a.body);
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
  const accounts = createAccountsService(o.db, { onPasswordChanged: o.onPasswordChanged });
  // wrong passwords per account and client (shared with the product's client-token endpoint)
  const logins = createAttemptLimiter(o.db, { max: 10, windowMs: 15 * 60_000 });
  // forms that send mail, per client
  const mailForms = createAttemptLimiter(o.db, { max: 20, windowMs: 15 * 60_000 });
  // mail to one address, whoever asks: nobody floods a mailbox through us
  const mailsTo = createAttemptLimiter(o.db, { max: 5, windowMs: 3600_000 });
  const registrations = createRegistrationTokens(o.cookieKeys[0]);
  const trustProxy = o.trustProxy ?? (() => false);
  const httpsIssuer = o.issuer.startsWith('https:');
  const cookieSecure = o.cookieSecure ?? httpsIssuer;

  /**
   * The client: the socket's peer, or, when that is a trusted proxy, the nearest address in X-Forwarded-For
   * that is not one (what Fastify's trustProxy gives the product).
   */
  function clientAddress(req: http.IncomingMessage): string {
    let client = req.socket.remoteAddress ?? '';
    if (!trustProxy(client)) return client;
    const hops = String(req.headers['x-forwarded-for'] ?? '').split(',').map((h) => h.trim()).filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      client = hops[i];
      if (!trustProxy(client)) break;
    }
    return client;
  }

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
  // forwarded headers reach the provider only from a trusted proxy (the others are dropped in the server below)
  provider.proxy = true;
  if (cookieSecure) {
    // every context the provider makes (its routes, sessions, interactions) sets Secure cookies, whatever
    // connection we see: behind a TLS proxy it is plain http, the browser's is not
    // (the provider's Koa application; the provider's typings describe it loosely)
    const app = provider.app as unknown as { createContext(req: http.IncomingMessage, res: http.ServerResponse): { cookies: { secure: boolean } } };
    const createContext = app.createContext.bind(app);
    app.createContext = (req, res) => {
      const ctx = createContext(req, res);
      ctx.cookies.secure = true;
      return ctx;
    };
  }
  const oidc = provider.callback();
  const reply = (res: http.ServerResponse, status: number, html: string, lang?: Language) => send(res, status, html, lang, cookieSecure);

  function loginPage(lang: Language, uid: string, email = '', error?: string) {
    return page(
      lang,
      ssoText(lang, 'signIn'),
      `${errorBox(lang, error)}<form method="post" action="/interaction/${esc(uid)}/login" autocomplete="on">${field(lang, 'email', 'email', 'email', email, 'required autofocus autocomplete="username"')}${field(lang, 'password', 'password', 'password', '', 'required autocomplete="current-password"')}<button type="submit">${esc(ssoText(lang, 'signIn'))}</button></form>
<div class="links"><a href="/interaction/${esc(uid)}/register">${esc(ssoText(lang, 'noAccount'))} ${esc(ssoText(lang, 'register'))}</a><a href="/forgot?uid=${esc(uid)}">${esc(ssoText(lang, 'forgot'))}</a><a href="/password?uid=${esc(uid)}">${esc(ssoText(lang, 'changePassword'))}</a></div>`,
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

  const backLink = (lang: Language, href: string, key: 'back' | 'signIn' = 'back') => `<div class="links"><a href="${esc(href)}">${esc(ssoText(lang, key))}</a></div>`;
  const okBox = (text: string) => `<div class="ok">${esc(text)}</div>`;

  /**
   * Registration answers the same whether or not the address has an account, and the mailbox decides: a new
   * address gets the link that creates the account, a registered one a note to its owner. Both ways hash the
   * password and send one mail, so neither the page nor its timing tells them apart.
   */
  async function register(req: http.IncomingMessage, res: http.ServerResponse, lang: Language, uid: string) {
    const form = await readForm(req);
    const v = { email: form.get('email') ?? '', name: form.get('name') ?? '' };
    const password = form.get('password') ?? '';
    if (password !== (form.get('confirm') ?? '')) return reply(res, 200, registerPage(lang, uid, v, 'password.mismatch'));
    try {
      accounts.checkNewAccount({ email: v.email, password });
    } catch (e) {
      if (!(e instanceof AccountError)) throw e;
      return reply(res, 200, registerPage(lang, uid, v, e.code));
    }
    if (!(await mailForms.take(`register|${clientKey(clientAddress(req))}`))) return reply(res, 429, registerPage(lang, uid, v, 'tooMany'));
    const email = accounts.normalizeEmail(v.email);
    const passwordHash = await hashPassword(password);
    const existing = await accounts.findByEmail(email);
    if (await mailsTo.take(`mail|${email}`)) {
      if (existing) {
        await o.mailer.send({ to: existing.email, subject: ssoText(lang, 'mail.registered.subject'), text: ssoText(lang, 'mail.registered.body', [o.productUrl, `${o.issuer}/forgot?lang=${lang}`]) });
      } else {
        const link = `${o.issuer}/interaction/${uid}/confirm?token=${registrations.seal({ email, name: v.name.trim(), passwordHash })}&lang=${lang}`;
        await o.mailer.send({ to: email, subject: ssoText(lang, 'mail.register.subject'), text: ssoText(lang, 'mail.register.body', [link]) });
      }
    }
    reply(res, 200, page(lang, ssoText(lang, 'register'), `${okBox(ssoText(lang, 'registerSent', [email]))}${backLink(lang, `/interaction/${uid}`)}`));
  }

  /** The link of a registration mail: the account is created; the browser that began the sign-in goes on signed in. */
  async function confirmRegistration(req: http.IncomingMessage, res: http.ServerResponse, url: URL, lang: Language, uid: string) {
    const pending = registrations.open(url.searchParams.get('token') ?? '');
    let account: { id: string } | null = null;
    try {
      if (pending) account = await accounts.createAccountWithHash(pending);
    } catch (e) {
      // used before, or the address was registered meanwhile
      if (!(e instanceof AccountError)) throw e;
    }
    if (!account) return reply(res, 200, page(lang, ssoText(lang, 'register'), `${errorBox(lang, 'register.invalid')}${backLink(lang, o.productUrl)}`));
    const details = await provider.interactionDetails(req, res).catch(() => null);
    if (details?.uid === uid && details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
      return;
    }
    reply(res, 200, page(lang, ssoText(lang, 'register'), `${okBox(ssoText(lang, 'accountReady'))}${backLink(lang, o.productUrl, 'signIn')}`));
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> {
    const url = new URL(req.url ?? '/', o.issuer);
    let lang = langOf(req, url);
    const setLang = url.searchParams.has('lang') ? lang : undefined;
    // the "back" links are built from it: an interaction id or nothing, never a path of the caller's choosing
    const backUid = /^[A-Za-z0-9_-]{1,64}$/.exec(url.searchParams.get('uid') ?? '')?.[0] ?? '';
    const back = backUid ? `/interaction/${backUid}` : o.productUrl;
    const m = /^\/interaction\/([A-Za-z0-9_-]+)(\/login|\/register|\/confirm)?$/.exec(url.pathname);
    if (m) {
      const [, uid, action] = m;
      if (req.method === 'GET' && action === '/confirm') return await confirmRegistration(req, res, url, lang, uid), true;
      let details;
      try {
        details = await provider.interactionDetails(req, res);
      } catch {
        reply(res, 400, page(lang, 'Error', `<div class="err">${esc(ssoText(lang, 'err.reset.invalid'))}</div>${backLink(lang, o.productUrl)}`));
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
      if (req.method === 'GET' && !action) return reply(res, 200, loginPage(lang, uid), setLang), true;
      if (req.method === 'GET' && action === '/register') return reply(res, 200, registerPage(lang, uid), setLang), true;
      if (req.method === 'POST' && action === '/login') {
        const form = await readForm(req);
        const email = form.get('email') ?? '';
        // an empty form is a slip, not a guess: it says what is missing and costs no attempt
        if (!email.trim() || !form.get('password')) return reply(res, 200, loginPage(lang, uid, email, 'required')), true;
        const key = loginAttemptKey(email, clientAddress(req));
        if (!(await logins.take(key))) return reply(res, 429, loginPage(lang, uid, email, 'tooMany')), true;
        const account = await accounts.verifyPassword(email, form.get('password') ?? '');
        if (!account) return reply(res, 200, loginPage(lang, uid, email, 'credentials.wrong')), true;
        await logins.reset(key);
        await provider.interactionFinished(req, res, { login: { accountId: account.id } }, { mergeWithLastSubmission: false });
        return true;
      }
      if (req.method === 'POST' && action === '/register') return await register(req, res, lang, uid), true;
      return false;
    }
    const forgotPage = (lang: Language, error?: string, email = '') =>
      page(lang, ssoText(lang, 'resetTitle'), `${errorBox(lang, error)}<form method="post">${field(lang, 'email', 'email', 'email', email, 'required autofocus')}<button type="submit">${esc(ssoText(lang, 'sendReset'))}</button></form>${backLink(lang, back)}`, { path: `/forgot?uid=${backUid}` });
    if (url.pathname === '/forgot') {
      if (req.method === 'POST') {
        const form = await readForm(req);
        const email = accounts.normalizeEmail(form.get('email') ?? '');
        if (!EMAIL_RE.test(email)) return reply(res, 200, forgotPage(lang, 'email.invalid', form.get('email') ?? '')), true;
        if (!(await mailForms.take(`reset|${clientKey(clientAddress(req))}`))) return reply(res, 429, page(lang, ssoText(lang, 'resetTitle'), errorBox(lang, 'tooMany'))), true;
        const account = await accounts.findByEmail(email);
        if (account && (await mailsTo.take(`mail|${account.email}`))) {
          const token = await accounts.createResetToken(account.id);
          const link = `${o.issuer}/reset?token=${token}&lang=${lang}`;
          await o.mailer.send({ to: account.email, subject: ssoText(lang, 'mail.reset.subject'), text: ssoText(lang, 'mail.reset.body', [link]) });
        }
        // same answer whether or not the address is registered
        return reply(res, 200, page(lang, ssoText(lang, 'resetTitle'), `${okBox(ssoText(lang, 'resetSent'))}${backLink(lang, back)}`)), true;
      }
      return reply(res, 200, forgotPage(lang), setLang), true;
    }
    if (url.pathname === '/password') {
      const form = (error?: string, email = '') =>
        page(lang, ssoText(lang, 'changePassword'), `${errorBox(lang, error)}<form method="post">${field(lang, 'email', 'email', 'email', email, 'required autofocus autocomplete="username"')}${field(lang, 'current', 'currentPassword', 'password', '', 'required autocomplete="current-password"')}${field(lang, 'password', 'newPassword', 'password', '', 'required minlength="8" autocomplete="new-password"')}${field(lang, 'confirm', 'confirmPassword', 'password', '', 'required minlength="8" autocomplete="new-password"')}<button type="submit">${esc(ssoText(lang, 'changePassword'))}</button></form>${backLink(lang, back)}`, { path: `/password?uid=${backUid}` });
      if (req.method === 'POST') {
        const f = await readForm(req);
        const email = f.get('email') ?? '';
        if ((f.get('password') ?? '') !== (f.get('confirm') ?? '')) return reply(res, 200, form('password.mismatch', email)), true;
        // the current password is a password guess like any other: the sign-in lockout counts it
        const key = loginAttemptKey(email, clientAddress(req));
        if (!(await logins.take(key))) return reply(res, 429, form('tooMany', email)), true;
        try {
          await accounts.changePassword(email, f.get('current') ?? '', f.get('password') ?? '');
        } catch (e) {
          if (!(e instanceof AccountError)) throw e;
          return reply(res, 200, form(e.code, email)), true;
        }
        await logins.reset(key);
        return reply(res, 200, page(lang, ssoText(lang, 'changePassword'), `${okBox(ssoText(lang, 'passwordChanged'))}${backLink(lang, o.productUrl, 'signIn')}`)), true;
      }
      return reply(res, 200, form(), setLang), true;
    }
    if (url.pathname === '/reset') {
      const token = url.searchParams.get('token') ?? '';
      const form = (error?: string) => page(lang, ssoText(lang, 'resetTitle'), `${errorBox(lang, error)}<form method="post" action="/reset?token=${esc(token)}">${field(lang, 'password', 'newPassword', 'password', '', 'required minlength="8" autofocus autocomplete="new-password"')}${field(lang, 'confirm', 'confirmPassword', 'password', '', 'required minlength="8" autocomplete="new-password"')}<button type="submit">${esc(ssoText(lang, 'setPassword'))}</button></form>`);
      if (req.method === 'POST') {
        const f = await readForm(req);
        if ((f.get('password') ?? '') !== (f.get('confirm') ?? '')) return reply(res, 200, form('password.mismatch')), true;
        try {
          await accounts.resetPassword(token, f.get('password') ?? '');
        } catch (e) {
          if (!(e instanceof AccountError)) throw e;
          return reply(res, 200, form(e.code)), true;
        }
        return reply(res, 200, page(lang, ssoText(lang, 'resetTitle'), `${okBox(ssoText(lang, 'resetDone'))}${backLink(lang, o.productUrl, 'signIn')}`)), true;
      }
      if (!(await accounts.isResetTokenValid(token))) return reply(res, 200, page(lang, ssoText(lang, 'resetTitle'), errorBox(lang, 'reset.invalid'))), true;
      return reply(res, 200, form(), setLang), true;
    }
    if (url.pathname === '/' && (req.method === 'GET' || req.method === 'HEAD')) return redirect(res, o.productUrl), true;
    const asset = BRAND_ASSETS[url.pathname];
    if (asset && (req.method === 'GET' || req.method === 'HEAD')) return sendAsset(res, req.method, asset), true;
    return false;
  }

  // how long a client may take (see SsoServerOptions.timeouts); forms are at most 64 KB: a minute is plenty for
  // one whole request; Node looks for connections past these limits every quarter of the header timeout
  const t = o.timeouts;
  const limits: http.ServerOptions = t
    ? { headersTimeout: t.headersMs, requestTimeout: Math.max(t.headersMs, Math.min(t.requestMs, 60_000)), keepAliveTimeout: t.keepAliveMs, connectionsCheckingInterval: Math.max(250, Math.min(5000, Math.floor(t.headersMs / 4))) }
    : {};
  const server = http.createServer(limits, (req, res) => {
    // X-Forwarded-* from anyone but a configured proxy is a claim, not a fact: dropped before anything reads it
    if (!trustProxy(req.socket.remoteAddress ?? '')) for (const h of FORWARDED_HEADERS) delete req.headers[h];
    // an https issuer is what the browser sees, whatever connection reaches us: the provider's URLs say so
    if (httpsIssuer) req.headers['x-forwarded-proto'] = 'https';
    handle(req, res)
      .then((handled) => {
        if (!handled) oidc(req, res);
      })
      .catch((err) => {
        console.error('sso error', err);
        if (!res.headersSent) reply(res, 500, page('en', 'Error', '<div class="err">Internal error</div>'));
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
