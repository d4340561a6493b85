/**
 * Test helper: the app of `createTestApp` listening on a real port, with the built-in login site beside it on
 * the next port, as `npm start` wires them, so a test can sign in through OpenID Connect in process.
 *   const t = await createSignInApp(driver);  await t.createAccount('a@example.com', 'password 1');
 *   const b = new Browser();  const done = await t.signIn(b, '/yun/trash', 'a@example.com', 'password 1');
 */
import { createAccountsService, type SsoDb } from '@cadcloud/sso';
import type { TestDatabaseDriver } from '../infra/db/test-databases.ts';
import { createBuiltInSso } from '../compose.ts';
import { createUsersService } from '../modules/users/users.service.ts';
import { listOutbox } from '../infra/mail/outbox.ts';
import { createTestApp, type TestApp } from './fixtures.ts';
import { freePortPair } from './server-process.ts';
import type { Browser } from './browser.ts';

export interface SignInApp extends TestApp {
  base: string;
  sso: string;
  createAccount(email: string, password: string): Promise<{ accountId: string; userId: string }>;
  /** Starts at /api/auth/login, lands on the login form; returns the interaction's form URL. */
  startSignIn(b: Browser, returnTo: string): Promise<string>;
  /** The whole sign-in: login form, password, back to the product. */
  signIn(b: Browser, returnTo: string, email: string, password: string): ReturnType<Browser['go']>;
  /** A client token from /user/v5/sysuser/clientToken, or null when refused. */
  clientToken(email: string, password: string): Promise<string | null>;
  /** POST a call-style-2 request with `?utoken=` (the answer's rtnCode tells whether the token still works). */
  callWith(token: string, path: string, data?: unknown): Promise<{ rtnCode: string; bizData: any }>;
  /** The newest mail to `to` in the outbox, and the first link in it. */
  lastMail(to: string): Promise<{ subject: string; text: string; link: string | undefined } | undefined>;
}

export async function createSignInApp(driver: TestDatabaseDriver, env: Record<string, string> = {}): Promise<SignInApp> {
  const port = await freePortPair();
  const t = await createTestApp(driver, { PORT: String(port), ...env });
  await t.app.listen({ port, host: '127.0.0.1' });
  const sso = await createBuiltInSso(t.deps);
  await sso.listen(port + 1, '127.0.0.1');
  const accounts = createAccountsService(t.deps.db as unknown as SsoDb);
  const users = createUsersService(t.deps);
  const base = `http://127.0.0.1:${port}`;
  const ssoUrl = `http://127.0.0.1:${port + 1}`;
  const startSignIn = async (b: Browser, returnTo: string) => {
    const start = await b.go(`${base}/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
    if (!/\/interaction\/[^/]+$/.test(start.url)) throw new Error(`expected the login form, got ${start.url} (${start.res.status})`);
    return start.url;
  };
  return {
    ...t,
    base,
    sso: ssoUrl,
    async createAccount(email, password) {
      const a = await accounts.createAccount({ email, password });
      const u = await users.findOrCreateBySso({ sub: a.id, email: a.email, name: a.name });
      return { accountId: a.id, userId: u.id };
    },
    startSignIn,
    async signIn(b, returnTo, email, password) {
      const form = await startSignIn(b, returnTo);
      return b.form(`${form}/login`, { email, password });
    },
    async clientToken(email, password) {
      const r = await fetch(`${base}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email, password } }), headers: { 'content-type': 'application/json' } }).then((x) => x.json());
      return r.code === '0000000' ? r.data.token : null;
    },
    async callWith(token, p, data = {}) {
      return fetch(`${base}${p}?utoken=${encodeURIComponent(token)}`, { method: 'POST', body: JSON.stringify({ data }), headers: { 'content-type': 'application/json' } }).then((x) => x.json());
    },
    async lastMail(to) {
      const m = (await listOutbox(t.deps.db, { limit: 200 })).find((x) => x.to_addr === to);
      return m && { subject: m.subject, text: m.text, link: /(https?:\/\/\S+)/.exec(m.text)?.[1] };
    },
    async close() {
      await sso.close();
      await t.close();
    },
  };
}
