import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeScene } from '@cadcloud/cad/scene';
import { nestedArrays } from '../../../../packages/cad/src/testing/hostile-dxf.ts';
import { writeAsciiDxf } from '../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { sharedSceneBuilder } from '../modules/drawings/scene-builder.ts';

/**
 * Issue 14 item 7: one small DXF tied up the viewer for everyone. A 1.6 kB DXF of nested arrays (10^18 entities asked
 * for) kept the scene worker busy past 100 s, until its timeout, on every open (the failure was not remembered),
 * and the worker took builds first come first served, so four such opens delayed everyone else's scenes by minutes.
 * Now the engine bounds the work by the drawing's content (a bounded scene in seconds, the rest reported), a failed
 * drawing answers its error at once on later opens (remembered per bytes in the database), and builds wait for their
 * user's turn. The worker's hard timeout is 20 s here, so the code before the fix fails each test within minutes.
 */
const TIMEOUT_ENV = { SCENE_TIMEOUT_MS: '20000', WEB_OPEN_FILE_SIZE: String(1 << 20) };
const normal = Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 100], [21, 0]] }, { type: 'CIRCLE', pairs: [[8, '0'], [10, 50], [20, 50], [40, 10]] }] }));

for (const driver of testDatabaseDrivers()) {
  describe(`hostile drawing content on ${driver.name}`, () => {
    let t: TestApp;
    let tight: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver, TIMEOUT_ENV);
      // a build budget of 300 ms: the hostile drawing ends as "too complex" (deterministic, quick)
      tight = await createTestApp(driver, { ...TIMEOUT_ENV, SCENE_BUILD_BUDGET_MS: '300' });
    });
    afterAll(async () => {
      await t?.close();
      await tight?.close();
    });

    const open = (app: TestApp, fileId: string, token: string) => {
      const t0 = performance.now();
      return app.app
        .inject({ method: 'GET', headers: { 'accept-language': 'en' }, url: `/cloud/v5/drawing/scene?fileId=${fileId}&utoken=${encodeURIComponent(token)}` })
        .then((r) => ({ r, ms: performance.now() - t0 }));
    };
    /** counts the builds that reach the worker */
    function countBuilds(app: TestApp) {
      const builder = sharedSceneBuilder(app.deps);
      const build = builder.build;
      const seen = { n: 0 };
      builder.build = (...a: Parameters<typeof build>) => {
        seen.n++;
        return build(...a);
      };
      return seen;
    }

    it('a few hundred bytes asking for 10^18 entities give a bounded scene in seconds, the rest reported', async () => {
      const u = await t.createUser();
      const bytes = Buffer.from(nestedArrays());
      expect(bytes.byteLength).toBeLessThan(2000);
      const id = (await t.upload(u.token, 'arrays.dxf', bytes)).bizData.id;
      const { r, ms } = await open(t, id, u.token);
      console.log(`hostile nested arrays (${bytes.byteLength} B): ${r.statusCode} in ${ms.toFixed(0)} ms, scene ${r.rawPayload.byteLength} B`);
      expect(r.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      expect(ms).toBeLessThan(15_000);
      expect(r.rawPayload.byteLength).toBeLessThan(16 << 20);
      expect(decodeScene(new Uint8Array(r.rawPayload)).meta.notDrawn['INSERT:limit']).toBeGreaterThan(0);
    }, 120_000);

    it('a drawing that failed answers the same error at once, without a worker job, for every copy of its bytes', async () => {
      const u = await tight.createUser(), v = await tight.createUser();
      const builds = countBuilds(tight);
      const bytes = Buffer.from(nestedArrays(6, 10, 7));
      const [a, b] = [await tight.upload(u.token, 'slow.dxf', bytes), await tight.upload(v.token, 'copy.dxf', bytes)].map((x) => x.bizData.id);
      const first = await open(tight, a, u.token);
      expect(first.r.json().rtnCode).toBe('1008007'); // drawing.tooComplex
      expect(builds.n).toBe(1);
      const again = await open(tight, a, u.token);
      const copy = await open(tight, b, v.token);
      console.log(`failure memory: first open ${first.ms.toFixed(0)} ms, second ${again.ms.toFixed(0)} ms, another user's copy ${copy.ms.toFixed(0)} ms`);
      expect(again.r.json()).toMatchObject({ rtnCode: '1008007', msg: 'This drawing is too complex to display.' });
      expect(copy.r.json().rtnCode).toBe('1008007');
      expect(builds.n).toBe(1);
      expect(again.ms).toBeLessThan(1000);
      // an unreadable file too; other bytes are built
      const junk = (await tight.upload(u.token, 'junk.dxf', Buffer.from('  0\r\nSECTION\r\n  2\r\nENTITIES\r\n  0\r\nLINE\r\n 10\r\nnot a number'.repeat(3)))).bizData.id;
      const junkFirst = (await open(tight, junk, u.token)).r.json().rtnCode;
      const n = builds.n;
      expect((await open(tight, junk, u.token)).r.json().rtnCode).toBe(junkFirst);
      expect(builds.n).toBe(n);
      const fine = (await tight.upload(u.token, 'fine.dxf', normal)).bizData.id;
      expect((await open(tight, fine, u.token)).r.statusCode).toBe(200);
      expect(builds.n).toBe(n + 1);
    }, 180_000);

    it('while one user opens four hostile drawings, another user’s open waits for one build at most', async () => {
      const attacker = await t.createUser(), other = await t.createUser();
      const ids: string[] = [];
      for (let k = 0; k < 4; k++) ids.push((await t.upload(attacker.token, `h${k}.dxf`, Buffer.from(nestedArrays(6, 10, 100 + k)))).bizData.id);
      const fine = (await t.upload(other.token, 'plan.dxf', normal)).bizData.id;
      const t0 = performance.now();
      const hostile = ids.map((id) => open(t, id, attacker.token));
      // the attacker's first build has started; the others wait behind it
      await new Promise((r) => setTimeout(r, 200));
      const mine = await open(t, fine, other.token);
      const done = await Promise.all(hostile);
      const total = performance.now() - t0;
      const slowest = Math.max(...done.map((d) => d.ms));
      console.log(`fair share: other user's open ${mine.ms.toFixed(0)} ms while the attacker's 4 opens took ${total.toFixed(0)} ms (slowest ${slowest.toFixed(0)} ms)`);
      expect(mine.r.statusCode).toBe(200);
      expect(mine.r.headers['content-type']).toBe('application/vnd.cadcloud.scene');
      // one build of the attacker's at most (each bounded by content: seconds), never all four
      expect(mine.ms).toBeLessThan(15_000);
      expect(mine.ms).toBeLessThan(slowest);
    }, 240_000);

    it('a user with four builds waiting gets drawing.busy for more, other users do not', async () => {
      const attacker = await t.createUser(), other = await t.createUser();
      const ids: string[] = [];
      for (let k = 0; k < 8; k++) ids.push((await t.upload(attacker.token, `b${k}.dxf`, Buffer.from(nestedArrays(6, 10, 200 + k)))).bizData.id);
      const fine = (await t.upload(other.token, 'plan.dxf', Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 1], [20, 1], [11, 9], [21, 9]] }] })))).bizData.id;
      const opens = ids.map((id) => open(t, id, attacker.token));
      const results = await Promise.all([...opens, open(t, fine, other.token)]);
      const busy = results.filter((x) => x.r.headers['content-type']?.toString().includes('json') && x.r.json().rtnCode === '1008008');
      // four waiting are admitted besides what runs: one build, or two when the worker kept for opens is free too
      // (fair-queue.ts); of eight, two or three are refused
      expect(busy.length).toBeGreaterThanOrEqual(2);
      expect(busy.length).toBeLessThanOrEqual(3);
      expect(results.at(-1)!.r.statusCode).toBe(200);
      expect(results.at(-1)!.r.headers['content-type']).toBe('application/vnd.cadcloud.scene');
    }, 240_000);
  });
}
