import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { Browser } from '../test/browser.ts';
import { createSignInApp, type SignInApp } from '../test/sign-in-app.ts';

/**
 * Issue 14 item 13: registration told whether an e-mail has an account ("This e-mail is already registered").
 * Now both answer the same page, and the mailbox decides: a new address gets the link that creates the account,
 * the owner of a registered one a note that someone tried.
 */
describe('registration does not tell which e-mails are registered', () => {
  let t: SignInApp;
  beforeAll(async () => {
    t = await createSignInApp(testDatabaseDrivers()[0]);
    await t.createAccount('taken@example.com', 'owner password');
  });
  afterAll(() => t?.close());

  async function register(b: Browser, email: string, returnTo = '/yun/trash') {
    const form = await t.startSignIn(b, returnTo);
    const done = await b.form(`${form}/register`, { email, name: 'Someone', password: 'attacker password', confirm: 'attacker password' });
    return { status: done.res.status, url: done.url, html: (await done.res.text()).replaceAll(email, '<address>').replace(/\/interaction\/[A-Za-z0-9_-]+/g, '/interaction/<uid>') };
  }

  it('answers a new and a registered e-mail with the same page, and mails each address', async () => {
    const fresh = await register(new Browser(), 'fresh@example.com');
    const taken = await register(new Browser(), 'taken@example.com');
    expect(taken.status).toBe(fresh.status);
    expect(taken.html).toBe(fresh.html);
    expect(fresh.html).toContain('Open the link in it');
    // nobody is signed in by either
    expect(new URL(fresh.url).origin).not.toBe(t.base);
    const owner = await t.lastMail('taken@example.com');
    expect(owner?.subject).toContain('someone tried to register');
    expect(owner?.text).toContain(`${t.sso}/forgot`);
    // the owner's password is unchanged
    expect(await t.clientToken('taken@example.com', 'owner password')).toBeTruthy();
    expect(await t.clientToken('taken@example.com', 'attacker password')).toBeNull();
    expect((await t.lastMail('fresh@example.com'))?.subject).toContain('finish your registration');
  });

  it('the mailed link creates the account and signs the registering browser in, once', async () => {
    const b = new Browser();
    await register(b, 'newbie@example.com', '/yun/font');
    expect(await t.clientToken('newbie@example.com', 'attacker password')).toBeNull();
    const link = (await t.lastMail('newbie@example.com'))!.link!;
    const done = await b.go(link);
    expect(done.url).toBe(`${t.base}/yun/font`);
    expect((await t.callWith(b.cookies(t.base).get('ticket')!, '/user/v5/sysuser/userInfo')).bizData.email).toBe('newbie@example.com');
    const again = await new Browser().go(link);
    expect(await again.res.text()).toContain('invalid or has expired');
  });

  it('opened in another browser, the link creates the account and asks to sign in', async () => {
    await register(new Browser(), 'elsewhere@example.com');
    const link = (await t.lastMail('elsewhere@example.com'))!.link!;
    const other = await new Browser().go(link);
    expect(await other.res.text()).toContain('Your account is ready');
    expect(await t.clientToken('elsewhere@example.com', 'attacker password')).toBeTruthy();
  });

  it('a link altered by one character is refused', async () => {
    await register(new Browser(), 'tamper@example.com');
    const link = (await t.lastMail('tamper@example.com'))!.link!;
    const token = new URL(link).searchParams.get('token')!;
    const altered = link.replace(token, `${token.slice(0, 20)}${token[20] === 'A' ? 'B' : 'A'}${token.slice(21)}`);
    expect(await (await new Browser().go(altered)).res.text()).toContain('invalid or has expired');
    expect(await t.clientToken('tamper@example.com', 'attacker password')).toBeNull();
  });
});
