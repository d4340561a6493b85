import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { binaryStl, cube } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { runAdmin } from '../../admin/admin.cli.ts';
import { createDatabase } from '../../infra/db/db.ts';
import { startServer, type ServerProcess } from '../../test/server-process.ts';
import { until } from '../../test/until.ts';

/** A model big enough that its conversion takes a while: `n` cubes in a row (12 n triangles, a binary STL). */
function manyCubes(n: number): Buffer {
  const vertices: [number, number, number][] = [];
  const triangles: [number, number, number][] = [];
  for (let i = 0; i < n; i++) {
    const c = cube(1, [(i % 200) * 2, Math.floor(i / 200) * 2, 0]);
    const base = vertices.length;
    vertices.push(...c.vertices);
    triangles.push(...c.triangles.map((t) => t.map((k) => k + base) as [number, number, number]));
  }
  return Buffer.from(binaryStl({ vertices, triangles }));
}

describe('crash safety: a server killed (SIGKILL) in the middle of a 3D conversion', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-m3dcrash-'));
  // a short lease: the job of the killed process is taken again within seconds
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', JOB_LEASE_MS: '2000' };
  const db = createDatabase(`sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`);
  let server: ServerProcess;
  let token: string;
  const api = async (p: string, data: unknown) =>
    (await fetch(`${server.url}${p}?utoken=${token}`, { method: 'POST', body: JSON.stringify({ data, clientInfo: { language: 'en' } }), headers: { 'content-type': 'application/json' } })).json();

  beforeAll(async () => {
    await runAdmin(['user', 'create', '--email', 'm3dcrash@example.com', '--password', 'crash password'], env);
    await runAdmin(['user', 'vip', '--email', 'm3dcrash@example.com', '--type', '2'], env);
    server = await startServer(env);
    const r = await (await fetch(`${server.url}/user/v5/sysuser/clientToken`, { method: 'POST', body: JSON.stringify({ data: { email: 'm3dcrash@example.com', password: 'crash password' } }), headers: { 'content-type': 'application/json' } })).json();
    token = r.data.token;
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
    await db.destroy();
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  });

  it('resumes the conversion after a restart: the GLB is there, the source no longer converting', async () => {
    const form = new FormData();
    form.set('filedata', new Blob([new Uint8Array(manyCubes(40_000))]), 'many.stl');
    const src = (await (await fetch(`${server.url}/cloud/v5/file/upload?utoken=${token}`, { method: 'POST', body: form })).json()).bizData;
    const r = await api('/cloud/v5/file/task/transformBatch3D', { fileIds: [src.id], isTransForm: true });
    expect(r.rtnCode).toBe('0000000');
    const row = await db.selectFrom('model3d_conversions').select('id').where('source_id', '=', src.id).executeTakeFirstOrThrow();
    const job = () => db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', `model3d-${row.id}`).executeTakeFirst();
    // killed while the worker converts (stage mesh, first attempt)
    await until(async () => {
      const j = await job();
      const c = await db.selectFrom('model3d_conversions').select(['state', 'stage']).where('id', '=', row.id).executeTakeFirstOrThrow();
      return j?.state === 'active' && j.attempts === 1 && c.stage === 'mesh' && c.state === 0;
    }, 120_000);
    await server.kill('SIGKILL');
    server = await startServer(env, server.port);
    const s = await until(async () => {
      const x = (await api('/cloud/v5/file/task/checkTaskStatus3D', { fileId: src.id })).bizData;
      return x.transformStatus !== 0 ? x : undefined;
    }, 240_000);
    expect(s).toMatchObject({ transformStatus: 1, stage: 'done', stats: { triangles: 480_000 } });
    expect((await job())?.attempts).toBe(2);
    expect((await api('/cloud/v5/file/getFileInfo', { fileId: src.id })).bizData).toMatchObject({ transformStatus: 1, size: src.size, fileMD5: src.fileMD5 });
  }, 400_000);
});
