import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../../admin/admin.cli.ts';
import { startServer, type ServerProcess } from '../../test/server-process.ts';
import { Browser } from '../../test/browser.ts';

describe('sign-in through the login site (real server process)', () => {
  let server: ServerProcess;
  let base: string;
  let sso: string;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-auth-'));
  const env = () => ({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' });

  beforeAll(async () => {
    server = await startServer(env());
    base = server.url;
    sso = `http://127.0.0.1:${server.port + 1}`;
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const call = (b: Browser, p: string, data = {}) => b.request(`${base}${p}`, { method: 'POST', body: JSON.stringify({ data }), headers: { 'content-type': 'application/json' } }).then((r) => r.json());

  it('registers, comes back with the ticket cookie to the page it came from, and signs out', async () => {
    const b = new Browser();
    const start = await b.go(`${base}/api/auth/login?returnTo=${encodeURIComponent('/yun/version/abc')}`);
    expect(start.url).toMatch(new RegExp(`^${sso}/interaction/`));
    const page = await start.res.text();
    expect(page).toContain('Sign in');
    const uid = /\/interaction\/([^/]+)$/.exec(start.url)![1];
    const weak = await b.form(`${sso}/interaction/${uid}/register`, { email: 'bob@example.com', name: 'Bob', password: 'short', confirm: 'short' });
    expect(await weak.res.text()).toContain('at least 8 characters');
    const sent = await b.form(`${sso}/interaction/${uid}/register`, { email: 'bob@example.com', name: 'Bob', password: 'bobs password', confirm: 'bobs password' });
    expect(await sent.res.text()).toContain('Open the link in it');
    // the account comes with the link mailed to the address, which goes on with the sign-in
    const outbox = (await runAdmin(['mail', 'outbox'], env())) as { to: string; text: string }[];
    const link = /(http\S+\/confirm\?token=\S+)/.exec(outbox.find((m) => m.to === 'bob@example.com')!.text)![1];
    const done = await b.go(link);
    // a version page returns to an index path under /yun
    expect(done.url).toBe(`${base}/yun/index`);
    expect(b.cookies(base).get('ticket')).toBeTruthy();
    const me = await call(b, '/user/v5/sysuser/userInfo');
    expect(me.bizData).toMatchObject({ email: 'bob@example.com', name: 'Bob', storage: { used: 0, total: 500 * 1024 * 1024 } });

    const ticket = b.cookies(base).get('ticket')!;
    const out = await b.go(`${base}/api/auth/logout`);
    expect(out.hops.some((h) => h.startsWith(`${sso}/session/end`))).toBe(true);
    // the login site's confirmation form submits itself in a browser; do what its script does
    const confirm = await out.res.text();
    const action = /<form[^>]*id="op.logoutForm"[^>]*action="([^"]+)"/.exec(confirm)?.[1] ?? /action="([^"]+)"[^>]*id="op.logoutForm"/.exec(confirm)![1];
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirm)![1];
    const ended = await b.form(new URL(action, sso).href, { xsrf, logout: 'yes' });
    expect(ended.url).toBe(`${base}/`); // back to the product after the login site ended its session
    expect(b.cookies(base).get('ticket')).toBeUndefined();
    const stale = await fetch(`${base}/user/v5/sysuser/userInfo?utoken=${ticket}`, { method: 'POST', body: '{"data":{}}', headers: { 'content-type': 'application/json' } }).then((r) => r.json());
    expect(stale.rtnCode).toBe('101');

    // signing in again with the password works and lands where asked
    const again = await b.go(`${base}/api/auth/login?returnTo=/yun/trash`);
    const uid2 = /\/interaction\/([^/]+)$/.exec(again.url)![1];
    const wrong = await b.form(`${sso}/interaction/${uid2}/login`, { email: 'bob@example.com', password: 'nope nope' });
    expect(await wrong.res.text()).toContain('Wrong e-mail or password');
    const ok = await b.form(`${sso}/interaction/${uid2}/login`, { email: 'bob@example.com', password: 'bobs password' });
    expect(ok.url).toBe(`${base}/yun/trash`);
  });

  it('refuses a return address on another site', async () => {
    const b = new Browser();
    const r = await b.request(`${base}/api/auth/login?returnTo=${encodeURIComponent('//evil.example/x')}`);
    const tx = decodeURIComponent(b.cookies(base).get('oidc_tx') ?? '');
    expect(r.status).toBe(302);
    expect(tx).toContain('"returnTo":"/yun"');
  });

  it('resets a forgotten password through the mail outbox, once', async () => {
    await runAdmin(['user', 'create', '--email', 'carol@example.com', '--password', 'first password'], env());
    const b = new Browser();
    const sent = await b.form(`${sso}/forgot`, { email: 'carol@example.com' });
    expect(await sent.res.text()).toContain('we have sent');
    const outbox = (await runAdmin(['mail', 'outbox'], env())) as { to: string; text: string }[];
    const mail = outbox.find((m) => m.to === 'carol@example.com')!;
    const link = /(http\S+\/reset\?token=\S+)/.exec(mail.text)![1];
    expect((await b.go(link)).res.status).toBe(200);
    const reset = await b.form(link, { password: 'second password', confirm: 'second password' });
    expect(await reset.res.text()).toContain('password was reset');
    const reuse = await b.form(link, { password: 'third password', confirm: 'third password' });
    expect(await reuse.res.text()).toContain('invalid or has expired');

    const token = async (password: string) => (await fetch(`${base}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'carol@example.com', password } }), headers: { 'content-type': 'application/json', 'accept-language': 'en' } })).json();
    expect((await token('first password')).code).not.toBe('0000000');
    const good = await token('second password');
    expect(good).toMatchObject({ code: '0000000', data: { token: expect.any(String), id: expect.any(String) } });
    const me = await fetch(`${base}/user/v5/sysuser/userInfo?utoken=${good.data.token}`, { method: 'POST', body: '{"data":{}}', headers: { 'content-type': 'application/json' } }).then((r) => r.json());
    expect(me.bizData.email).toBe('carol@example.com');
  });

  it('locks the client-token endpoint after repeated wrong passwords', async () => {
    await runAdmin(['user', 'create', '--email', 'dave@example.com', '--password', 'dave password'], env());
    const token = (password: string) => fetch(`${base}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'dave@example.com', password } }), headers: { 'content-type': 'application/json' } }).then((r) => r.json());
    for (let i = 0; i < 10; i++) expect((await token(`guess ${i}`)).code).not.toBe('0000000');
    // even the right password is refused while locked out
    expect((await token('dave password')).code).not.toBe('0000000');
  });
});
