import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runAdmin } from '../admin/admin.cli.ts';
import { startServer, type ServerProcess } from '../test/server-process.ts';
import { multipartBody, rawExchange } from '../test/raw-http.ts';
import { until } from '../test/until.ts';

/**
 * Issue 14 item 13: temp files a killed server left stayed a day. Now a (re)starting server removes at once
 * everything no live process or live upload session owns, and leaves alone what another live server process on
 * the same data folder is writing.
 */
describe('temp files a crash left behind (real server processes on one data folder)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-leftovers-'));
  // uploads here wait for servers to start: no body timeout in between
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', HTTP_BODY_IDLE_TIMEOUT_MS: '600000' };
  const uploads = path.join(dataDir, 'uploads');
  const fsTmp = path.join(dataDir, 'storage', '.tmp');
  const servers: ServerProcess[] = [];
  let token = '';
  const start = async () => {
    const s = await startServer(env);
    servers.push(s);
    return s;
  };
  const clientToken = async (s: ServerProcess) => (await fetch(`${s.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'crash@example.com', password: 'crash password' } }), headers: { 'content-type': 'application/json' } }).then((r) => r.json())).data.token as string;
  /** An upload that sends half its body and waits: its temp file is on disk while it lasts. */
  const halfUpload = (s: ServerProcess, name: string) => {
    const body = multipartBody('XyZ', [Buffer.concat([Buffer.from(`Content-Disposition: form-data; name="filedata"; filename="${name}"\r\n\r\n`), Buffer.alloc(3_000_000, 1)])]);
    const head = `POST /cloud/v5/file/upload?utoken=${token} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${body.length}\r\n\r\n`;
    return rawExchange(s.port, [head, body.subarray(0, 1_000_000)], { waitMs: 120_000 });
  };
  const partsIn = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

  beforeAll(async () => {
    await runAdmin(['user', 'create', '--email', 'crash@example.com', '--password', 'crash password'], env);
  });
  afterAll(async () => {
    for (const s of servers) await s.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a restart removes what the killed server left, and keeps a live upload session', { timeout: 240_000 }, async () => {
    const a = await start();
    token = await clientToken(a);
    // a resumable upload session: its part belongs to the session, whoever runs
    const init = await fetch(`${a.url}/cloud/v5/upload/init?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data: { name: 'resume.dxf', size: 10_000_000, md5: 'a'.repeat(32), parentId: '0' } }), headers: { 'content-type': 'application/json' } }).then((r) => r.json());
    const sessionPart = `session-${init.bizData.uploadId}.part`;
    // an upload in flight when the server is killed
    void halfUpload(a, 'inflight.dxf');
    await until(async () => partsIn(uploads).some((f) => f.startsWith('i') && f.endsWith('.part')), 30_000);
    // what older versions and other code paths leave: a temp name without an owner, a session part without its
    // session, a half-written object of the local storage
    writeFileSync(path.join(uploads, '1795000000000-0123456789abcdef.part'), 'old');
    writeFileSync(path.join(uploads, 'session-GONE0000000000000000.part'), 'gone');
    mkdirSync(fsTmp, { recursive: true });
    writeFileSync(path.join(fsTmp, '1795000000000-fedcba9876543210'), 'half object');
    await a.kill('SIGKILL');
    expect(partsIn(uploads).length).toBe(4);

    const b = await start();
    expect(partsIn(uploads)).toEqual([sessionPart]);
    expect(partsIn(fsTmp)).toEqual([]);
    expect((await fetch(`${b.url}/cloud/v5/upload/init?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data: { name: 'resume.dxf', size: 10_000_000, md5: 'a'.repeat(32), parentId: '0' } }), headers: { 'content-type': 'application/json' } }).then((r) => r.json())).bizData.uploadId).toBe(init.bizData.uploadId);
  });

  it("a server starting beside a live one leaves the other's upload alone, and that upload completes", { timeout: 240_000 }, async () => {
    const b = servers.at(-1)!;
    const body = multipartBody('XyZ', [Buffer.concat([Buffer.from('Content-Disposition: form-data; name="filedata"; filename="beside.dxf"\r\n\r\n'), Buffer.alloc(3_000_000, 2)])]);
    const socket = net.connect(b.port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => (answer += d));
    socket.write(`POST /cloud/v5/file/upload?utoken=${token} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: ${body.length}\r\n\r\n`);
    socket.write(body.subarray(0, 1_000_000));
    await until(async () => partsIn(uploads).some((f) => f.startsWith('i') && f.endsWith('.part')), 30_000);
    const inflight = partsIn(uploads).filter((f) => f.startsWith('i'));
    const c = await start();
    expect(partsIn(uploads)).toEqual(expect.arrayContaining(inflight));
    socket.write(body.subarray(1_000_000));
    await until(async () => answer.includes('"rtnCode"'), 60_000);
    socket.destroy();
    expect(JSON.parse(answer.slice(answer.indexOf('{'))).bizData).toMatchObject({ name: 'beside.dxf', size: 3_000_000 });
    expect(partsIn(uploads).filter((f) => f.startsWith('i'))).toEqual([]);
    await c.kill('SIGTERM');
  });
});
