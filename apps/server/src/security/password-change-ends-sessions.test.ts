import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../admin/admin.cli.ts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { Browser } from '../test/browser.ts';
import { createSignInApp, type SignInApp } from '../test/sign-in-app.ts';

/**
 * Issue 14 item 8: a new password ends every way the account was signed in before it: the product's ticket
 * cookie, `utoken`s and client tokens, and the login site's own session (which would sign the browser in again
 * without a password).
 */
for (const driver of testDatabaseDrivers()) {
  describe(`a new password ends the sessions issued before it (${driver.name})`, () => {
    let t: SignInApp;
    beforeAll(async () => {
      t = await createSignInApp(driver);
    });
    afterAll(() => t?.close());

    /** Signed in three ways with `password`: a browser (ticket cookie, login-site session) and two client tokens. */
    async function signedInEverywhere(email: string, password: string) {
      const browser = new Browser();
      const done = await t.signIn(browser, '/yun/trash', email, password);
      expect(done.url).toBe(`${t.base}/yun/trash`);
      const ticket = browser.cookies(t.base).get('ticket')!;
      const tokens = [await t.clientToken(email, password), await t.clientToken(email, password)];
      for (const token of [ticket, ...tokens]) expect((await t.callWith(token!, '/user/v5/sysuser/userInfo')).rtnCode).toBe('0000000');
      return { browser, ticket, tokens: tokens as string[] };
    }

    async function expectAllEnded(s: Awaited<ReturnType<typeof signedInEverywhere>>) {
      for (const token of [s.ticket, ...s.tokens]) expect((await t.callWith(token, '/user/v5/sysuser/userInfo')).rtnCode).toBe('101');
      // the login site asks for the password again instead of signing the browser straight back in
      const again = await s.browser.go(`${t.base}/api/auth/login?returnTo=/yun/trash`);
      expect(again.url).toMatch(new RegExp(`^${t.sso}/interaction/[^/]+$`));
      expect(await again.res.text()).toContain('type="password"');
    }

    it('a password reset through the mailed link', async () => {
      await t.createAccount('reset@example.com', 'old password');
      const before = await signedInEverywhere('reset@example.com', 'old password');
      const b = new Browser();
      await b.form(`${t.sso}/forgot`, { email: 'reset@example.com' });
      const link = (await t.lastMail('reset@example.com'))!.link!;
      expect(await (await b.form(link, { password: 'new password', confirm: 'new password' })).res.text()).toContain('password was reset');
      await expectAllEnded(before);
      expect(await t.clientToken('reset@example.com', 'old password')).toBeNull();
      expect(await t.clientToken('reset@example.com', 'new password')).toBeTruthy();
    });

    it('a password change on the login site', async () => {
      await t.createAccount('change@example.com', 'old password');
      const before = await signedInEverywhere('change@example.com', 'old password');
      const b = new Browser();
      const wrong = await b.form(`${t.sso}/password`, { email: 'change@example.com', current: 'not it', password: 'new password', confirm: 'new password' });
      expect(await wrong.res.text()).toContain('Wrong e-mail or password');
      for (const token of before.tokens) expect((await t.callWith(token, '/user/v5/sysuser/userInfo')).rtnCode).toBe('0000000');
      const ok = await b.form(`${t.sso}/password`, { email: 'change@example.com', current: 'old password', password: 'new password', confirm: 'new password' });
      expect(await ok.res.text()).toContain('signed out everywhere');
      await expectAllEnded(before);
      expect(await t.clientToken('change@example.com', 'new password')).toBeTruthy();
    });

    // once, on SQLite (skipped on PostgreSQL): this checks the CLI's wiring (`accounts.setPassword`); that sessions
    // issued before a password change end on each driver is what the API cases above check on both
    it.runIf(driver.name === 'sqlite')('a password the operator sets (admin CLI)', async () => {
      await t.createAccount('admin-set@example.com', 'old password');
      const before = await signedInEverywhere('admin-set@example.com', 'old password');
      await runAdmin(['user', 'password', '--email', 'admin-set@example.com', '--password', 'operator password'], { DATA_DIR: t.dataDir, DATABASE_URL: t.db.url });
      await expectAllEnded(before);
      expect(await t.clientToken('admin-set@example.com', 'operator password')).toBeTruthy();
    });
  });
}
