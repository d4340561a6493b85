import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { runAdmin } from '../../admin/admin.cli.ts';
import { startServer, type ServerProcess } from '../../test/server-process.ts';

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/** Lists every stored object under the local storage root (temp folder excluded). */
function storedObjects(dataDir: string): string[] {
  const root = path.join(dataDir, 'storage', 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
}

describe('crash safety: a server killed in the middle of an upload', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-crash-'));
  const env = { DATA_DIR: dataDir, DATABASE_URL: '' };
  let server: ServerProcess;
  let token: string;

  const api = async (p: string, data: unknown) =>
    (await fetch(`${server.url}${p}?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();

  beforeAll(async () => {
    await runAdmin(['user', 'create', '--email', 'crash@example.com', '--password', 'crash password'], env);
    server = await startServer(env);
    const r = await (await fetch(`${server.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'crash@example.com', password: 'crash password' } }), headers: { 'content-type': 'application/json' } })).json();
    token = r.data.token;
  });
  afterAll(async () => {
    await server?.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('leaves no visible file, no blob and no used storage, and the upload can be retried', async () => {
    const body = randomBytes(3 * 1024 * 1024);
    const boundary = 'crashboundary';
    const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="parentId"\r\n\r\n0\r\n--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="half.dwg"\r\nContent-Type: application/octet-stream\r\n\r\n`);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const req = http.request(`${server.url}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + body.length + tail.length } });
    req.on('error', () => undefined);
    req.write(head);
    req.write(body.subarray(0, body.length / 2));
    // give the server time to stream the first half to disk, then kill it hard
    await new Promise((r) => setTimeout(r, 500));
    const partials = readdirSync(path.join(dataDir, 'uploads'));
    expect(partials.length).toBeGreaterThan(0);
    await server.kill('SIGKILL');
    req.destroy();

    server = await startServer(env, server.port);
    const list = await api('/cloud/v5/union/list', {});
    expect(list.bizData.list).toEqual([]);
    expect((await api('/cloud/v5/folder/capacity', {})).bizData.used).toBe(0);
    expect(storedObjects(dataDir)).toEqual([]);

    const boundary2 = 'retryboundary';
    const payload = Buffer.concat([Buffer.from(`--${boundary2}\r\nContent-Disposition: form-data; name="filedata"; filename="half.dwg"\r\n\r\n`), body, Buffer.from(`\r\n--${boundary2}--\r\n`)]);
    const retry = await (await fetch(`${server.url}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', body: payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary2}` } })).json();
    expect(retry.rtnCode).toBe('0000000');
    expect(retry.bizData).toMatchObject({ name: 'half.dwg', size: body.length, fileMD5: md5(body) });
    expect(storedObjects(dataDir)).toEqual([md5(body)]);
  });

  it('resumes a chunked upload after a restart from the bytes already received', async () => {
    const body = randomBytes(2 * 1024 * 1024 + 123);
    const init = await api('/cloud/v5/upload/init', { name: 'resume.dwg', size: body.length, md5: md5(body) });
    const half = 1024 * 1024;
    await fetch(`${server.url}/cloud/v5/upload/chunk?utoken=${token}&uploadId=${init.bizData.uploadId}&offset=0`, { method: 'PUT', body: body.subarray(0, half), headers: { 'content-type': 'application/octet-stream' } });
    await server.kill('SIGKILL');
    server = await startServer(env, server.port);
    const again = await api('/cloud/v5/upload/init', { name: 'resume.dwg', size: body.length, md5: md5(body) });
    expect(again.bizData).toMatchObject({ uploadId: init.bizData.uploadId, received: half });
    await fetch(`${server.url}/cloud/v5/upload/chunk?utoken=${token}&uploadId=${init.bizData.uploadId}&offset=${half}`, { method: 'PUT', body: body.subarray(half), headers: { 'content-type': 'application/octet-stream' } });
    const done = await api('/cloud/v5/upload/complete', { uploadId: init.bizData.uploadId });
    expect(done.bizData).toMatchObject({ complete: true, item: { name: 'resume.dwg', fileMD5: md5(body) } });
  });
});
