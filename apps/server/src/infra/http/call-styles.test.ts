import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { deriveSaltKeys, openResponse, randomSalt, sealRequest, SIGNED_HEADERS, SIGNED_REQUEST_ID, type SignedEnvelope } from '@cadcloud/contracts/signed-call';
import { testDatabaseDrivers } from '../db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { buildApp } from '../../app.ts';

/** A style-3 call as the spec's clients make it; `tamper` changes what is sent after sealing. */
async function signedCall(app: FastifyInstance, path: string, data: unknown, o: { token: string; secret: string; lang?: string; date?: string; salt?: string; tamper?: (e: SignedEnvelope) => SignedEnvelope }) {
  const date = o.date ?? String(Date.now());
  const salt = o.salt ?? randomSalt();
  const keys = await deriveSaltKeys(o.secret, salt);
  const sealed = await sealRequest(keys, date, salt, { data, clientInfo: { clientType: 'Web_PC', clientVersion: '1.0.0', language: o.lang ?? 'en' }, style: 3, secret: 1 });
  const body = o.tamper ? o.tamper(sealed) : sealed;
  const r = await app.inject({
    method: 'POST',
    url: `/secure${path}?utoken=${encodeURIComponent(o.token)}`,
    headers: { [SIGNED_HEADERS.date]: date, [SIGNED_HEADERS.salt]: salt, [SIGNED_HEADERS.requestId]: SIGNED_REQUEST_ID, [SIGNED_HEADERS.agent]: 'vitest', 'accept-language': o.lang ?? 'en' },
    payload: body,
  });
  const json = r.json();
  // an answer with sign and key is opened (and its signature checked) as the client does; anything else is a clear error
  const answer = json.sign ? await openResponse<{ rtnCode: string; bizData: any; msg: string }>(keys, date, salt, json) : json;
  return { status: r.statusCode, raw: json, answer, date, salt };
}

const form = (app: FastifyInstance, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });

for (const driver of testDatabaseDrivers()) {
  describe(`call styles 1, 3 and 4 on ${driver.name}`, () => {
    let t: TestApp;
    let a: { id: string; email: string; token: string };
    let secretA: string;

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      secretA = (await t.call('/global/v5/common/getRsaKey', {}, a.token)).bizData.aesSecretKey;
    });
    afterAll(async () => t?.close());

    it('style 4: one secret per session, the same on every ask, stored only encrypted', async () => {
      expect(secretA).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect((await t.call('/global/v5/common/getRsaKey', {}, a.token)).bizData.aesSecretKey).toBe(secretA);
      const other = await t.createUser();
      expect((await t.call('/global/v5/common/getRsaKey', {}, other.token)).bizData.aesSecretKey).not.toBe(secretA);
      const rows = await t.db.db.selectFrom('call_secrets').selectAll().execute();
      expect(rows.length).toBeGreaterThanOrEqual(2);
      for (const r of rows) expect(r.secret_enc).not.toContain(secretA);
      expect((await t.call('/global/v5/common/getRsaKey', {})).rtnCode).toBe('101');
    });

    it('style 3: a signed call round-trips (request and answer encrypted, answer signed)', async () => {
      const r = await signedCall(t.app, '/cloud/v5/font/list', { startIndex: 0, maxCount: 10 }, { token: a.token, secret: secretA });
      expect(r.status).toBe(200);
      expect(Object.keys(r.raw).sort()).toEqual(['key', 'sign']);
      expect(JSON.stringify(r.raw)).not.toContain('fontsList');
      expect(r.answer.rtnCode).toBe('0000000');
      expect(r.answer.bizData).toMatchObject({ total: 0 });
      // the same call in style 2 is still answered
      expect((await t.call('/cloud/v5/font/list', {}, a.token)).rtnCode).toBe('0000000');
    });

    it("style 3: a business failure comes back encrypted, in the request's language", async () => {
      const r = await signedCall(t.app, '/cloud/v5/font/rename', { id: 'no-such-font', name: 'x.ttf' }, { token: a.token, secret: secretA, lang: 'en' });
      expect(r.raw.sign).toBeTruthy();
      expect(r.answer.rtnCode).not.toBe('0000000');
      expect(r.answer.bizData.code).toBe('item.notFound');
    });

    it('style 3: a tampered sign is 签名失败', async () => {
      const r = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA, lang: 'zh', tamper: (e) => ({ ...e, sign: e.sign.slice(0, -2) + (e.sign.endsWith('AA') ? 'BB' : 'AA') }) });
      expect(r.answer.rtnCode).toBe('1000006');
      expect(r.answer.msg).toBe('签名失败');
      // a tampered key breaks the signature as well
      const k = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA, lang: 'zh', tamper: (e) => ({ ...e, key: e.key.slice(0, -2) + (e.key.endsWith('AA') ? 'BB' : 'AA') }) });
      expect(k.answer.msg).toBe('签名失败');
    });

    it("style 3: sealed with the wrong key (another session's secret) is refused", async () => {
      const b = await t.createUser();
      const secretB = (await t.call('/global/v5/common/getRsaKey', {}, b.token)).bizData.aesSecretKey;
      const r = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretB });
      expect(r.answer.bizData.code).toBe('sign.failed');
      expect(r.raw.sign).toBeUndefined();
    });

    it('style 3: the same date and salt twice is a replay, also on another server process', async () => {
      const first = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA });
      expect(first.answer.rtnCode).toBe('0000000');
      const again = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA, date: first.date, salt: first.salt });
      expect(again.answer.bizData.code).toBe('sign.replayed');
      // a second app on the same database and installation secrets: what one process answered, the other refuses
      const second = await buildApp(t.deps);
      try {
        const fresh = await signedCall(second, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA });
        expect(fresh.answer.rtnCode).toBe('0000000');
        const replay = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA, date: fresh.date, salt: fresh.salt });
        expect(replay.answer.bizData.code).toBe('sign.replayed');
      } finally {
        await second.close();
      }
    });

    it('style 3: a date more than 5 minutes off is refused', async () => {
      for (const off of [-5 * 60_000 - 5000, 5 * 60_000 + 5000]) {
        const r = await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA, date: String(Date.now() + off) });
        expect(r.answer.bizData.code).toBe('sign.expired');
      }
      expect((await signedCall(t.app, '/cloud/v5/font/list', {}, { token: a.token, secret: secretA, date: String(Date.now() - 60_000) })).answer.rtnCode).toBe('0000000');
    });

    it('style 3: without a session 1000005, without a secret 1000008 (both log the client out); missing headers malformed', async () => {
      expect((await signedCall(t.app, '/cloud/v5/font/list', {}, { token: 'forged', secret: secretA })).answer.rtnCode).toBe('1000005');
      const c = await t.createUser();
      expect((await signedCall(t.app, '/cloud/v5/font/list', {}, { token: c.token, secret: secretA })).answer.rtnCode).toBe('1000008');
      const r = await t.app.inject({ method: 'POST', url: `/secure/cloud/v5/font/list?utoken=${a.token}`, payload: { sign: 'x', key: 'y' } });
      expect(r.json().bizData.code).toBe('request.malformed');
      // only endpoints declared signed have a secure twin
      expect((await t.app.inject({ method: 'POST', url: `/secure/cloud/v5/union/list?utoken=${a.token}`, payload: {} })).statusCode).toBe(404);
    });

    it('style 1: form fields + ticket + clientType → {code, msg, data}; 101 without a ticket; the cookie is not believed', async () => {
      const r = await form(t.app, '/user/v5/sysuser/userInfo', { ticket: a.token, clientType: 'Web_PC' });
      expect(r.json()).toMatchObject({ code: '0000000', msg: 'success', data: { id: a.id, email: a.email } });
      expect(r.json().rtnCode).toBeUndefined();
      expect((await form(t.app, '/user/v5/sysuser/userInfo', { clientType: 'Web_PC' })).json()).toMatchObject({ code: '101' });
      expect((await form(t.app, '/user/v5/sysuser/userInfo', { clientType: 'Web_PC' }, { cookie: `ticket=${a.token}` })).json().code).toBe('101');
      const info = (await form(t.app, '/user/v5/customer/getInfo', { ticket: a.token, clientType: 'Web_H5' })).json();
      expect(info).toMatchObject({ code: '0000000', data: { id: a.id, clientType: 'Web_H5' } });
      // a form on an endpoint that does not take style 1 is refused, not half-understood
      expect((await form(t.app, '/cloud/v5/union/list', { ticket: a.token })).json().code).toBe('1000002');
    });

    it('style 1: logout ends the session named by the form ticket', async () => {
      const u = await t.createUser();
      expect((await form(t.app, '/user/v5/sysuser/logout', { ticket: u.token, clientType: 'Web_PC' })).json()).toMatchObject({ code: '0000000', data: { loggedOut: true } });
      expect((await form(t.app, '/user/v5/sysuser/userInfo', { ticket: u.token })).json().code).toBe('101');
    });

    it('getIpAddress: the peer, X-Forwarded-For ignored when the peer is not a trusted proxy', async () => {
      const r = await t.app.inject({ method: 'POST', url: '/global/v5/common/getIpAddress', headers: { 'x-forwarded-for': '203.0.113.9' }, payload: { data: {} }, remoteAddress: '198.51.100.7' });
      expect(r.json().bizData.ip).toBe('198.51.100.7');
    });

    it('company by token: none until companies exist; customer info; the AI assistant is off by default', async () => {
      expect((await t.call('/company/v5/member/getCompanyInfoByToken', {}, a.token)).bizData).toMatchObject({ company: null });
      expect((await t.call('/user/v5/customer/getInfo', {}, a.token)).bizData).toMatchObject({ id: a.id, email: a.email, clientType: 'Web_PC' });
      const conf = await t.call('/global/v5/common/getConfParamsByType', { type: 2 });
      expect(conf.bizData.aiAssistant).toBe(false);
      expect(conf.bizData.aiAssistantScriptUrl).toBeUndefined();
      expect((await t.call('/user/v5/sysuser/assistantToken', {}, a.token)).bizData.code).toBe('request.invalid');
    });

    it('the OpenAPI document lists the new calls, the secure twins and the form bodies', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['/global/v5/common/getRsaKey', '/global/v5/common/getIpAddress', '/user/v5/customer/getInfo', '/company/v5/member/getCompanyInfoByToken', '/secure/cloud/v5/font/list', '/secure/cloud/v5/font/edit']) expect(doc.paths[p], p).toBeTruthy();
      expect(doc.paths['/user/v5/sysuser/userInfo'].post.requestBody.content['application/x-www-form-urlencoded']).toBeTruthy();
      expect(doc.paths['/secure/cloud/v5/font/list'].post.parameters.map((p: { name: string }) => p.name)).toContain('x-salt');
    });
  });
}

describe('getIpAddress behind a trusted proxy', () => {
  const [driver] = testDatabaseDrivers();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { TRUSTED_PROXIES: '10.0.0.5', AI_ASSISTANT_SCRIPT_URL: 'https://assistant.example.com/widget.js' });
  });
  afterAll(async () => t?.close());

  it('believes X-Forwarded-For from the configured proxy only', async () => {
    const viaProxy = await t.app.inject({ method: 'POST', url: '/global/v5/common/getIpAddress', headers: { 'x-forwarded-for': '203.0.113.9' }, payload: { data: {} }, remoteAddress: '10.0.0.5' });
    expect(viaProxy.json().bizData.ip).toBe('203.0.113.9');
    const other = await t.app.inject({ method: 'POST', url: '/global/v5/common/getIpAddress', headers: { 'x-forwarded-for': '203.0.113.9' }, payload: { data: {} }, remoteAddress: '10.0.0.6' });
    expect(other.json().bizData.ip).toBe('10.0.0.6');
    // style 1 as well
    const f = await form(t.app, '/global/v5/common/getIpAddress', {}, { 'x-forwarded-for': '203.0.113.10' });
    expect(f.json()).toMatchObject({ code: '0000000', data: { ip: '127.0.0.1' } });
  });

  it('an operator-configured assistant: flag on, script address given, its origin allowed by the CSP', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/global/v5/common/getConfParamsByType', payload: { data: { type: 2 } } });
    expect(r.json().bizData).toMatchObject({ aiAssistant: true, aiAssistantScriptUrl: 'https://assistant.example.com/widget.js' });
    expect(r.headers['content-security-policy']).toMatch(/script-src 'self' https:\/\/assistant\.example\.com/);
    // the assistant's user token is a session of its own, not the browser's ticket
    const u = await t.createUser();
    const tok = (await t.call('/user/v5/sysuser/assistantToken', {}, u.token)).bizData.token;
    expect(tok).toBeTruthy();
    expect(tok).not.toBe(u.token);
    expect((await t.call('/user/v5/customer/getInfo', {}, tok)).bizData.id).toBe(u.id);
  });
});
