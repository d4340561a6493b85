import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { safeReturnTo } from '../modules/auth/return-to.ts';
import { Browser } from '../test/browser.ts';
import { createSignInApp, type SignInApp } from '../test/sign-in-app.ts';

/**
 * Issue 14 item 4: the address a sign-in returns to must stay on the product. Each payload is what an attacker
 * puts in `returnTo` (already URL-encoded as it would travel in a link); a browser resolves the answered
 * Location against the product, and that must be the product's origin.
 */
const ATTACKS = [
  '/%09/evil.test/x',
  '/%0a/evil.test/x',
  '/%0d/evil.test',
  '//evil.test',
  '//evil.test/yun',
  '/\\evil.test',
  '/%5Cevil.test',
  '\\\\evil.test',
  '/%5C%5Cevil.test',
  'https://evil.test',
  'https:evil.test',
  'http:/evil.test',
  '%2F%2Fevil.test',
  ' //evil.test',
  '/yun%0d%0aSet-Cookie:%20evil=1',
  '/yun%0d%0aLocation:%20https://evil.test',
  '/%E2%80%8B/evil.test',
  'javascript:alert(1)',
  '/./api/auth/login',
];

const PRODUCT = 'http://product.test:8080';
const browserTarget = (location: string) => new URL(location, PRODUCT);

describe('return address after sign-in (open redirect)', () => {
  it('every attack payload ends on a path of the product', () => {
    for (const encoded of ATTACKS) {
      const out = safeReturnTo(decodeURIComponent(encoded));
      expect(browserTarget(out).origin, encoded).toBe(PRODUCT);
      expect(out, encoded).toMatch(/^\/[^/\\]/);
      expect(out, encoded).not.toMatch(/[\u0000-\u0020\u007f-\uffff]/);
    }
  });

  it('keeps honest addresses, query and fragment, percent-encoded for the Location header', () => {
    expect(safeReturnTo('/yun/trash')).toBe('/yun/trash');
    expect(safeReturnTo('/yun/index?folderId=abc#top')).toBe('/yun/index?folderId=abc#top');
    expect(safeReturnTo('/share/Ab12?x=1')).toBe('/share/Ab12?x=1');
    expect(safeReturnTo('/yun/图纸')).toBe('/yun/%E5%9B%BE%E7%BA%B8');
    expect(safeReturnTo('/yun/version/f1')).toBe('/yun/index');
    expect(safeReturnTo(undefined)).toBe('/yun');
    expect(safeReturnTo(['/yun/trash'])).toBe('/yun');
  });

  describe('over HTTP, through the login site', () => {
    let t: SignInApp;
    beforeAll(async () => {
      t = await createSignInApp(testDatabaseDrivers()[0]);
      await t.createAccount('eve-target@example.com', 'target password');
    });
    afterAll(() => t?.close());

    it('/api/auth/login keeps only a same-origin path from each payload', async () => {
      for (const encoded of ATTACKS) {
        const b = new Browser();
        const r = await b.request(`${t.base}/api/auth/login?returnTo=${encoded}`);
        expect(r.status, encoded).toBe(302);
        const tx = JSON.parse(decodeURIComponent(b.cookies(t.base).get('oidc_tx')!).replace(/^s:/, '').replace(/\.[^.]+$/, ''));
        expect(new URL(tx.returnTo, t.base).origin, encoded).toBe(t.base);
      }
    });

    it('a CR/LF in returnTo ends the sign-in with a redirect to the product, not a 500 that spent the login code', async () => {
      for (const encoded of ['/yun/recent%0d%0aSet-Cookie:%20evil=1', '/yun%0aX-Injected:%201', '/%09/evil.test/x']) {
        const b = new Browser();
        const form = await b.go(`${t.base}/api/auth/login?returnTo=${encoded}`);
        const done = await b.form(`${form.url}/login`, { email: 'eve-target@example.com', password: 'target password' });
        const callback = done.hops.findIndex((h) => h.startsWith(`${t.base}/api/auth/callback`));
        expect(callback, encoded).toBeGreaterThanOrEqual(0);
        expect(new URL(done.url).origin, encoded).toBe(t.base);
        expect(done.res.status, encoded).not.toBe(500);
        expect(b.cookies(t.base).get('ticket'), encoded).toBeTruthy();
        expect(b.cookies(t.base).has('evil'), encoded).toBe(false);
      }
    });

    it('the callback checks the address again before it answers (a transaction cookie holding another site)', async () => {
      const b = new Browser();
      const form = await t.startSignIn(b, '/yun/trash');
      // the cookie the product signed, with its state and verifier, but another site to return to
      const signed = decodeURIComponent(b.cookies(t.base).get('oidc_tx')!);
      const tx = JSON.parse(t.app.unsignCookie(signed).value!);
      b.cookies(t.base).set('oidc_tx', encodeURIComponent(t.app.signCookie(JSON.stringify({ ...tx, returnTo: '/\t/evil.test/x' }))));
      const done = await b.form(`${form}/login`, { email: 'eve-target@example.com', password: 'target password' });
      expect(done.url).toBe(`${t.base}/yun`);
      expect(b.cookies(t.base).get('ticket')).toBeTruthy();
    });
  });
});
