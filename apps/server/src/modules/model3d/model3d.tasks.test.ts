import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VipType } from '@cadcloud/contracts';
import { stepAssembly } from '../../../../../packages/model3d/src/fixtures/step.ts';
import { asciiStl } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerModel3dJobs } from './model3d.jobs.ts';
import { createModel3dService } from './model3d.service.ts';

const P = '/cloud/v5/file/task/';
/** an assembly of `n` boxes side by side: one mesh per part */
const assembly = (n: number) =>
  stepAssembly('Rack', Array.from({ length: n }, (_, i) => ({ name: `Shelf${i}`, min: [0, 0, 0] as [number, number, number], max: [1, 2, 3] as [number, number, number], at: [i * 2, 0, 0] as [number, number, number] })));

// the progress path is one UPDATE on either database: the slow real conversion runs on SQLite only
describe('3D conversion progress (sqlite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0]);
  });
  afterAll(async () => t?.close());

  it('a STEP assembly of 30 parts records increasing progress through several stages, a few writes a second at most', async () => {
    const u = await t.createUser();
    await t.db.db.updateTable('users').set({ vip_type: VipType.SUPER }).where('id', '=', u.id).execute();
    const f = (await t.upload(u.token, 'rack.step', Buffer.from(assembly(30)))).bizData;
    // no job runner here: the conversion is admitted and left queued, then run below with a job context that reads the
    // conversion's row each time the job's progress is reported (the rows as a poll sees them while it runs)
    expect((await t.call(`${P}transformBatch3D`, { fileIds: [f.id], isTransForm: true }, u.token)).bizData.list[0]).toMatchObject({ transformStatus: 0, stage: 'queued' });
    const row = await t.db.db.selectFrom('model3d_conversions').selectAll().where('source_id', '=', f.id).executeTakeFirstOrThrow();
    // while it converts (transformStatus 0) the file is not renamed, moved or deleted, as a converting drawing
    const box = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'box' }, u.token)).bizData;
    for (const [path, data] of [
      ['/cloud/v5/file/edit', { fileId: f.id, name: 'other.step' }],
      ['/cloud/v5/union/move', { fileIds: [f.id], folderIds: [], moveToId: box.id }],
      ['/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [f.id] }],
    ] as const) expect((await t.call(path, data, u.token)).bizData.code, path).toBe('conversion.inProgress');
    // and a second conversion of it is the spec's 'There are 3D models being converting'
    expect((await t.call(`${P}transformBatch3D`, { fileIds: [f.id], isTransForm: true }, u.token)).bizData.code).toBe('model3d.converting');
    const seen: Array<{ at: number; pct: number; progress: number; stage: string }> = [];
    const r = await createModel3dService(t.deps).run(row.id, {
      attempt: 1,
      progress: async (pct) => {
        const now = await t.db.db.selectFrom('model3d_conversions').select(['progress', 'stage', 'state']).where('id', '=', row.id).executeTakeFirstOrThrow();
        expect(now.state).toBe(0);
        seen.push({ at: performance.now(), pct, progress: Number(now.progress), stage: now.stage });
      },
    });
    expect(r).toMatchObject({ stats: { triangles: 30 * 12 } });
    console.log('progress rows:', seen.map((s) => `${s.progress}% ${s.stage}`).join(', '));
    // the row and the job say the same, never back, within the worker's 10–90 %
    for (const s of seen) expect(s.progress).toBe(s.pct);
    // rising: each write says something new (a higher percent or the next stage)
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i].progress).toBeGreaterThanOrEqual(seen[i - 1].progress);
      expect(`${seen[i].progress} ${seen[i].stage}`).not.toBe(`${seen[i - 1].progress} ${seen[i - 1].stage}`);
    }
    expect(seen[0]).toMatchObject({ progress: 10, stage: 'parse' });
    // past the one occt call (parse) into the parts; the stages after the import may all fall inside one throttle
    // interval on a fast machine, and what waits is dropped when the conversion ends (the 'store' stage follows)
    expect(Math.max(...seen.map((s) => s.progress))).toBeGreaterThan(50);
    expect(Math.max(...seen.map((s) => s.progress))).toBeLessThanOrEqual(90);
    const stages = new Set(seen.map((s) => s.stage));
    expect(stages.size).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(['parse', 'import', 'document', 'thumbnail', 'compress', 'write']).toContain(s);
    // throttled: 250 ms apart at least (a little slack for the timer)
    for (let i = 1; i < seen.length; i++) expect(seen[i].at - seen[i - 1].at).toBeGreaterThan(200);
    const end = await t.db.db.selectFrom('model3d_conversions').select(['progress', 'stage', 'state']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(end).toMatchObject({ state: 1, stage: 'done' });
    expect(Number(end.progress)).toBe(100);
  }, 180_000);
});

for (const driver of testDatabaseDrivers()) {
  describe(`the 3D conversions list (list3D) on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver, { FREE_3D_TRIALS: 'unlimited', MODEL3D_MAX_TRIANGLES: '20' });
      registerModel3dJobs(t.deps.queue, t.deps);
    });
    afterAll(async () => t?.close());
    const list = async (token: string) => (await t.call(`${P}list3D`, {}, token)).bizData;

    it("lists the caller's own conversions, the latest of each file, newest first; never another user's", async () => {
      const a = await t.createUser();
      const b = await t.createUser();
      expect(await list(a.token)).toEqual({ list: [], total: 0 });
      const cube = (await t.upload(a.token, 'cube.stl', Buffer.from(asciiStl()))).bizData;
      const big = (await t.upload(a.token, 'big.step', Buffer.from(assembly(2)))).bizData; // 24 triangles: above the cap of 20
      const other = (await t.upload(b.token, 'theirs.stl', Buffer.from(asciiStl()))).bizData;
      expect((await t.call(`${P}transformBatch3D`, { fileIds: [cube.id], isTransForm: true }, a.token)).rtnCode).toBe('0000000');
      expect((await t.call(`${P}transformBatch3D`, { fileIds: [big.id], isTransForm: true }, a.token)).rtnCode).toBe('0000000');
      expect((await t.call(`${P}transformBatch3D`, { fileIds: [other.id], isTransForm: true }, b.token)).rtnCode).toBe('0000000');
      const settled = await until(async () => {
        const l = await list(a.token);
        return l.list.every((x: { transformStatus: number }) => x.transformStatus !== 0) && l;
      }, 120_000);
      expect(settled.total).toBe(2);
      expect(settled.list.map((x: { name: string }) => x.name)).toEqual(['big.step', 'cube.stl']);
      const [failed, done] = settled.list;
      expect(done).toMatchObject({ fileId: cube.id, transformStatus: 1, progress: 100, stage: 'done', code: null, fileExists: true });
      expect(done.finishTimestamp).toBeGreaterThanOrEqual(done.createTimestamp);
      expect(failed).toMatchObject({ fileId: big.id, transformStatus: 2, stage: 'failed', code: 'model3d.tooManyTriangles', fileExists: true });
      expect(failed.msg).toBeTruthy();
      // b sees only b's; nothing of a's: no ids, no names
      const theirs = await until(async () => {
        const l = await list(b.token);
        return l.list[0]?.transformStatus === 1 && l;
      }, 120_000);
      expect(theirs.total).toBe(1);
      expect(JSON.stringify(theirs)).not.toContain(cube.id);
      expect(JSON.stringify(theirs)).not.toContain('big.step');
      expect(theirs.list[0]).toMatchObject({ fileId: other.id, name: 'theirs.stl' });
      // signed out: 101
      expect((await t.call(`${P}list3D`, {})).rtnCode).toBe('101');

      // a retry replaces the failed row in the list (still one per file); a deleted source cannot be opened any more
      expect((await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [cube.id] }, a.token)).rtnCode).toBe('0000000');
      const after = await list(a.token);
      expect(after.total).toBe(2);
      expect(after.list.find((x: { fileId: string }) => x.fileId === cube.id)).toMatchObject({ fileExists: false, name: 'cube.stl' });
    }, 240_000);

    it('is in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      expect(Object.keys(doc.paths)).toContain(`${P}list3D`);
    });
  });
}
