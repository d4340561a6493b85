import { afterEach, describe, expect, it } from 'vitest';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { loadConfig } from '../infra/config/index.ts';
import { Browser } from '../test/browser.ts';
import { createSignInApp, type SignInApp } from '../test/sign-in-app.ts';

/**
 * Issue 14 item 13: cookies lacked Secure unless COOKIE_SECURE was set, and the login site's never had it.
 * Now Secure follows the public address (https: Secure), COOKIE_SECURE forces it either way, on the product
 * and on the login site.
 */
const secure = (c: string) => /;\s*secure\s*(;|$)/i.test(c);
const named = (cookies: string[], name: string) => cookies.filter((c) => c.startsWith(`${name}=`));

describe('Secure cookies', () => {
  let t: SignInApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('follows PUBLIC_URL: https makes every product cookie Secure, COOKIE_SECURE=false turns it off', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://cad.example.test' }).cookieSecure).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'http://cad.example.test' }).cookieSecure).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'https://cad.example.test', COOKIE_SECURE: 'false' }).cookieSecure).toBe(false);
    expect(loadConfig({ SSO_ISSUER: 'https://login.example.test' }).ssoCookieSecure).toBe(true);
    expect(loadConfig({ COOKIE_SECURE: 'true' })).toMatchObject({ cookieSecure: true, ssoCookieSecure: true });
    expect(() => loadConfig({ COOKIE_SECURE: 'yes' })).toThrow(/COOKIE_SECURE/);
  });

  it('an https PUBLIC_URL: the sign-in transaction cookie is Secure', async () => {
    t = await createSignInApp(testDatabaseDrivers()[0], { PUBLIC_URL: 'https://cad.example.test' });
    const b = new Browser();
    await b.request(`${t.base}/api/auth/login?returnTo=/yun`);
    const tx = named(b.setCookies, 'oidc_tx');
    expect(tx).toHaveLength(1);
    expect(secure(tx[0])).toBe(true);
  });

  it('COOKIE_SECURE=true: every cookie of a whole sign-in, product and login site, is Secure', async () => {
    t = await createSignInApp(testDatabaseDrivers()[0], { COOKIE_SECURE: 'true' });
    await t.createAccount('sec@example.com', 'secure password');
    const b = new Browser();
    const form = await t.startSignIn(b, '/yun/trash');
    await b.request(`${form}?lang=en`);
    const done = await b.form(`${form}/login`, { email: 'sec@example.com', password: 'secure password' });
    expect(done.url).toBe(`${t.base}/yun/trash`);
    for (const name of ['oidc_tx', 'ticket', 'id_hint', '_interaction', '_session', 'sso_lang']) expect(named(b.setCookies, name).length, name).toBeGreaterThan(0);
    const set = b.setCookies.filter((c) => !/=;|max-age=0|expires=thu, 01 jan 1970/i.test(c));
    expect(set.filter((c) => !secure(c))).toEqual([]);
  });

  it('plain http by default: no Secure, so a local installation still signs in', async () => {
    t = await createSignInApp(testDatabaseDrivers()[0]);
    await t.createAccount('plain@example.com', 'plain password');
    const b = new Browser();
    await t.signIn(b, '/yun', 'plain@example.com', 'plain password');
    expect(b.setCookies.filter(secure)).toEqual([]);
  });
});
