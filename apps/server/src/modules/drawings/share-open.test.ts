import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fanOut } from '../../../../../packages/cad/src/testing/hostile-dxf.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { registerDrawingJobs } from './drawings.jobs.ts';
import { sharedSceneBuilder } from './scene-builder.ts';

/**
 * Issue 16 item 14, a share recipient's first open: the scene of a shared drawing is the owner's scene (same bytes,
 * the owner's fonts), so a visitor's open through the share token takes the build the upload's prewarm is running, or
 * the scene the owner's open cached, and never builds it again; while every open is still checked against the
 * share's grant.
 */
describe("a share recipient's open reuses the owner's scene", () => {
  const driver = testDatabaseDrivers()[0];
  /** a drawing whose build takes a second or more: the open comes while it is building */
  const heavy = (k: number) => Buffer.from(fanOut(7, 40 + k));
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
    registerDrawingJobs(t.deps.queue, t.deps);
  });
  afterAll(async () => t?.close());

  const jobState = async (id: string) => t.db.db.selectFrom('jobs').select(['state', 'result']).where('id', '=', `scene-${id}`).executeTakeFirst();
  /** the drawing shared by its owner and extracted by a visitor who is not signed in: the visitor's share token */
  async function shareOf(ownerToken: string, fileIds: string[]): Promise<string> {
    const s = (await t.call('/cloud/v5/share/create', { fileIds, folderIds: [], validDays: 1 }, ownerToken)).bizData;
    const x = await t.app.inject({ method: 'POST', url: '/cloud/v5/share/extract', payload: { data: { rand: s.rand, code: s.code, password: s.password ?? '' }, clientInfo: { language: 'en' } } });
    const token = x.json().bizData?.shareToken as string;
    expect(token, JSON.stringify(x.json())).toBeTruthy();
    return token;
  }
  const visitorOpen = (id: string, shareToken: string) => t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${id}&layout=Model&shareToken=${encodeURIComponent(shareToken)}` });

  it("a visitor's open while the upload's prewarm builds the drawing is served by that build: one build", async () => {
    const builds = vi.spyOn(sharedSceneBuilder(t.deps), 'build');
    try {
      const owner = await t.createUser();
      const id = (await t.upload(owner.token, 'shared-heavy.dxf', heavy(0))).bizData.id as string;
      const token = await shareOf(owner.token, [id]);
      // the queue has taken the prewarm job and its build has started
      await until(async () => builds.mock.calls.length > 0);
      const r = await visitorOpen(id, token);
      expect(r.statusCode, r.body.slice(0, 200)).toBe(200);
      expect(r.headers['content-type']).toContain('application/vnd.cadcloud.scene');
      const job = await until(async () => ((await jobState(id))?.state === 'completed' ? jobState(id) : undefined), 120_000);
      expect(builds.mock.calls.map((c) => c[2]), `builds: ${JSON.stringify(builds.mock.calls.map((c) => [c[1], c[2]]))}, job ${JSON.stringify(job)}`).toEqual(['Model']);
      // the answer names nothing of the owner's: no user id, no blob hash
      const md5 = (await t.db.db.selectFrom('items').select(['blob_md5']).where('id', '=', id).executeTakeFirstOrThrow()).blob_md5!;
      expect(JSON.stringify(r.headers)).not.toMatch(new RegExp(`${owner.id}|${md5}`));
    } finally {
      builds.mockRestore();
    }
  }, 180_000);

  it("after the owner's open a visitor's first open is a cache hit: nothing is built", async () => {
    const owner = await t.createUser();
    const id = (await t.upload(owner.token, 'shared-opened.dxf', heavy(1))).bizData.id as string;
    const own = await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${id}&layout=Model&utoken=${encodeURIComponent(owner.token)}` });
    expect(own.statusCode).toBe(200);
    // the owner's scene written to the cache, and the prewarm done (it finds that scene)
    await until(async () => ((await jobState(id))?.state === 'completed' ? true : undefined), 120_000);
    const token = await shareOf(owner.token, [id]);
    const builds = vi.spyOn(sharedSceneBuilder(t.deps), 'build');
    try {
      const r = await visitorOpen(id, token);
      expect(r.statusCode).toBe(200);
      expect(r.headers['x-scene-cache']).toBe('hit');
      expect(Buffer.compare(r.rawPayload, own.rawPayload)).toBe(0);
      expect(builds).not.toHaveBeenCalled();
    } finally {
      builds.mockRestore();
    }
  }, 180_000);

  it('the share token is still checked at every open: another drawing of the owner, a wrong token, no token', async () => {
    const owner = await t.createUser();
    const shared = (await t.upload(owner.token, 'shared.dxf', heavy(2))).bizData.id as string;
    const other = (await t.upload(owner.token, 'not-shared.dxf', heavy(3))).bizData.id as string;
    const token = await shareOf(owner.token, [shared]);
    // the other drawing's scene exists (the owner opened it): the token still does not reach it
    expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${other}&utoken=${encodeURIComponent(owner.token)}` })).statusCode).toBe(200);
    expect((await visitorOpen(other, token)).json()).toMatchObject({ bizData: { code: 'drawing.noPermission' } });
    expect((await visitorOpen(shared, `${token}x`)).json().rtnCode).not.toBe('0000000');
    expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${shared}&layout=Model` })).json().rtnCode).toBe('101');
    // another user signed in, through the share: allowed; without it: not theirs
    const b = await t.createUser();
    expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${shared}&utoken=${encodeURIComponent(b.token)}` })).json()).toMatchObject({ bizData: { code: 'drawing.noPermission' } });
    expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${shared}&shareToken=${encodeURIComponent(token)}&utoken=${encodeURIComponent(b.token)}` })).statusCode).toBe(200);
  }, 180_000);
});
