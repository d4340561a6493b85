import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { registerErrorHandler } from '../infra/http/error-handler.ts';
import { registerRequestGuards } from '../infra/http/request-guards.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { multipartBody, rawExchange } from '../test/raw-http.ts';
import { createSignInApp } from '../test/sign-in-app.ts';
import { until } from '../test/until.ts';

/**
 * Issue 14 item 10: every request ends. Malformed multipart uploads get a clear error at once; a client that
 * sends nothing, half a header or half a body is answered (where it can be) and its connection closed once the
 * configured time is over; an upload that keeps sending is never cut, however long it takes.
 */
const HEADERS_MS = 1500;
const BODY_IDLE_MS = 1500;

describe('requests that never end', () => {
  let t: TestApp;
  let port: number;
  let user: { id: string; token: string };
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0], { WEB_UPLOAD_FILE_SIZE: '20MB', HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_BODY_IDLE_TIMEOUT_MS: String(BODY_IDLE_MS) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
    user = await t.createUser({ quota: 100 * 1024 * 1024 });
  });
  afterAll(() => t?.close());

  const itemsOf = async (uid: string) => t.db.db.selectFrom('items').select('name').where('uid', '=', uid).execute();
  const uploadHead = (body: Buffer | number, boundary = 'XyZ', token = user.token) =>
    `POST /cloud/v5/file/upload?utoken=${token} HTTP/1.1\r\nHost: x\r\nAccept-Language: en\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${typeof body === 'number' ? body : body.length}\r\n\r\n`;
  const filePart = (name: string, content: Buffer) => Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="filedata"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), content]);
  const big = Buffer.alloc(300_000, 65);

  describe('malformed multipart uploads are answered with an error within seconds', () => {
    const cases: [string, () => [string, Buffer]][] = [
      ['CR in the file name', () => ['XyZ', multipartBody('XyZ', [filePart('a\rb.dxf', big)])]],
      ['LF in the file name', () => ['XyZ', multipartBody('XyZ', [filePart('a\nb.dxf', big)])]],
      ['CR in the file name, small file', () => ['XyZ', multipartBody('XyZ', [filePart('a\rb.dxf', Buffer.from('0\nSECTION\n'))])]],
      ['no closing boundary', () => ['XyZ', multipartBody('XyZ', [filePart('open.dxf', big)], false)]],
      ['another boundary than the header says', () => ['Other', multipartBody('XyZ', [filePart('wrong.dxf', big)])]],
      ['no part at all', () => ['XyZ', Buffer.from('just some text, no boundary anywhere')]],
    ];
    for (const [name, make] of cases) {
      it(name, async () => {
        const [boundary, body] = make();
        const before = (await itemsOf(user.id)).length;
        const r = await rawExchange(port, [uploadHead(body, boundary), body], { waitMs: 8000, untilAnswer: true });
        expect(r.status, `${name}: ${r.body}`).toBeGreaterThanOrEqual(400);
        expect(r.status, r.body).toBeLessThan(500);
        expect(r.ms).toBeLessThan(5000);
        expect(JSON.parse(r.body).rtnCode).not.toBe('0000000');
        expect((await itemsOf(user.id)).length).toBe(before);
      });
    }

    it('a missing boundary parameter is a malformed request', async () => {
      const body = multipartBody('XyZ', [filePart('nb.dxf', Buffer.from('x'))]);
      const head = `POST /cloud/v5/file/upload?utoken=${user.token} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data\r\nContent-Length: ${body.length}\r\n\r\n`;
      const r = await rawExchange(port, [head, body], { waitMs: 8000, untilAnswer: true });
      expect(r.status, r.body).toBe(400);
      expect(JSON.parse(r.body).bizData.code).toBe('request.malformed');
    });
  });

  describe('odd multipart the parser reads past is answered at once, never left hanging', () => {
    // busboy skips a part it cannot use; the file part of the upload is still there and is taken
    const cases: [string, Buffer, string][] = [
      ['a part without Content-Disposition before the file', multipartBody('XyZ', [Buffer.concat([Buffer.from('Content-Type: text/plain\r\n\r\n'), big]), filePart('ok.dxf', big)]), 'ok.dxf'],
      ['a second file part after the one allowed', multipartBody('XyZ', [filePart('one.dxf', big), filePart('two.dxf', big)]), 'one.dxf'],
      ['a part header larger than the parser takes', multipartBody('XyZ', [Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="filedata"; filename="h.dxf"\r\nX-Pad: ${'p'.repeat(100_000)}\r\n\r\n`), big])]), 'h.dxf'],
    ];
    for (const [name, body, stored] of cases) {
      it(name, async () => {
        const r = await rawExchange(port, [uploadHead(body), body], { waitMs: 8000, untilAnswer: true });
        expect(r.ms).toBeLessThan(5000);
        expect(JSON.parse(r.body).bizData.name, r.body).toBe(stored);
      });
    }
  });

  it('a body the server stops taking (a parser that stalled) is answered 400 after the idle timeout, and its reader released', async () => {
    // the guard on its own, before a route that never reads its body: what a stalled parser looks like from outside
    const app = Fastify();
    registerErrorHandler(app);
    registerRequestGuards(app, { bodyIdleTimeoutMs: BODY_IDLE_MS });
    app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
    let released = false;
    app.put('/stalled', async (req) => {
      await new Promise((r) => req.raw.once('close', r));
      released = true;
      return {};
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const p = (app.server.address() as { port: number }).port;
      const r = await rawExchange(p, [`PUT /stalled HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 3000000\r\n\r\n`, Buffer.alloc(1_000_000)], { waitMs: BODY_IDLE_MS * 6 });
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body).bizData.code).toBe('request.malformed');
      expect(r.closed).toBe(true);
      await until(async () => released, 5000);
    } finally {
      await app.close();
    }
  });

  it('a connection that sends nothing is closed after the header timeout', async () => {
    const r = await rawExchange(port, [], { waitMs: HEADERS_MS * 6 });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeGreaterThanOrEqual(HEADERS_MS - 100);
  });

  it('the login site too closes a connection that sends half a header', async () => {
    const s = await createSignInApp(testDatabaseDrivers()[0], { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS) });
    try {
      const ssoPort = Number(new URL(s.sso).port);
      const r = await rawExchange(ssoPort, ['POST /forgot HTTP/1.1\r\nHost: x\r\nContent-Ty'], { waitMs: HEADERS_MS * 6 });
      expect(r.closed).toBe(true);
      expect(r.ms).toBeGreaterThanOrEqual(HEADERS_MS - 100);
    } finally {
      await s.close();
    }
  });

  it('half a header is closed after the header timeout', async () => {
    const r = await rawExchange(port, ['POST /user/v5/sysuser/userInfo HTTP/1.1\r\nHost: x\r\nContent-Ty'], { waitMs: HEADERS_MS * 6 });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeGreaterThanOrEqual(HEADERS_MS - 100);
  });

  it('a header sent one byte at a time still has to be complete within the header timeout', async () => {
    const head = 'POST /user/v5/sysuser/userInfo HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(60);
    const parts = [...head].flatMap((c) => [c, 100]);
    const r = await rawExchange(port, parts, { waitMs: HEADERS_MS * 8 });
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(HEADERS_MS * 5);
  });

  it('half a JSON body is answered 408 and the connection closed', async () => {
    const r = await rawExchange(port, [`POST /user/v5/sysuser/userInfo?utoken=${user.token} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"data":`], { waitMs: BODY_IDLE_MS * 6 });
    expect(r.status).toBe(408);
    expect(JSON.parse(r.body).bizData.code).toBe('request.timeout');
    expect(r.closed).toBe(true);
  });

  it('an upload that stops halfway is answered 408, closed, and leaves no temp file', async () => {
    const body = multipartBody('XyZ', [filePart('stalled.dxf', Buffer.alloc(2_000_000, 66))]);
    const r = await rawExchange(port, [uploadHead(body), body.subarray(0, 500_000)], { waitMs: BODY_IDLE_MS * 6 });
    expect(r.status).toBe(408);
    expect(r.closed).toBe(true);
    expect((await itemsOf(user.id)).some((i) => i.name === 'stalled.dxf')).toBe(false);
    // the parser and the temp file learn that no more is coming: nothing stays open
    await until(async () => readdirSync(path.join(t.dataDir, 'uploads')).filter((f) => f.endsWith('.part')).length === 0, 5000);
  });

  it('an upload that keeps sending is not cut, though it takes several idle timeouts', async () => {
    const body = multipartBody('XyZ', [filePart('slow.dxf', Buffer.alloc(400_000, 67))]);
    const parts: (Buffer | string | number)[] = [uploadHead(body)];
    // 40 pieces, one every 200 ms: 8 s in all, more than five idle timeouts, never idle for one
    for (let i = 0; i < 40; i++) parts.push(body.subarray(Math.floor((i * body.length) / 40), Math.floor(((i + 1) * body.length) / 40)), 200);
    const r = await rawExchange(port, parts, { waitMs: 30_000, untilAnswer: true });
    expect(r.status, r.body).toBe(200);
    expect(JSON.parse(r.body).bizData).toMatchObject({ name: 'slow.dxf', size: 400_000 });
  });

  it('a refused upload (not signed in) is answered 401 and the connection closed, the body not awaited', async () => {
    const body = multipartBody('XyZ', [filePart('anon.dxf', Buffer.alloc(5_000_000, 68))]);
    const r = await rawExchange(port, [uploadHead(body, 'XyZ', 'not-a-ticket'), body.subarray(0, 1000)], { waitMs: 10_000 });
    expect(r.status).toBe(401);
    expect(r.closed).toBe(true);
    expect(r.ms).toBeLessThan(BODY_IDLE_MS);
  });
});
