import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryStl, cube } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { crashTestServer } from '../../test/crash-server.ts';
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
  const crash = crashTestServer('m3dcrash', { email: 'm3dcrash@example.com', vipType: 2 });
  const { db, api, upload } = crash;

  beforeAll(() => crash.start(), 120_000);
  afterAll(() => crash.stop());

  it('resumes the conversion after a restart: the GLB is there, the source no longer converting', async () => {
    const src = await upload('many.stl', manyCubes(40_000));
    const r = await api('/cloud/v5/file/task/transformBatch3D', { fileIds: [src.id], isTransForm: true });
    expect(r.rtnCode).toBe('0000000');
    const row = await db.selectFrom('model3d_conversions').select('id').where('source_id', '=', src.id).executeTakeFirstOrThrow();
    const job = () => db.selectFrom('jobs').select(['state', 'attempts']).where('id', '=', `model3d-${row.id}`).executeTakeFirst();
    // killed while the worker converts (one of the worker's stages, first attempt)
    await until(async () => {
      const j = await job();
      const c = await db.selectFrom('model3d_conversions').select(['state', 'stage']).where('id', '=', row.id).executeTakeFirstOrThrow();
      return j?.state === 'active' && j.attempts === 1 && ['parse', 'import', 'document', 'thumbnail', 'compress', 'write'].includes(c.stage) && c.state === 0;
    }, 120_000);
    await crash.killAndRestart();
    const s = await until(async () => {
      const x = (await api('/cloud/v5/file/task/checkTaskStatus3D', { fileId: src.id })).bizData;
      return x.transformStatus !== 0 ? x : undefined;
    }, 240_000);
    expect(s).toMatchObject({ transformStatus: 1, stage: 'done', stats: { triangles: 480_000 } });
    expect((await job())?.attempts).toBe(2);
    expect((await api('/cloud/v5/file/getFileInfo', { fileId: src.id })).bizData).toMatchObject({ transformStatus: 1, size: src.size, fileMD5: src.fileMD5 });
  }, 400_000);
});
