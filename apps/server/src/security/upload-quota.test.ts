import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { sweepLeftovers } from '../compose.ts';
import { createDatabase } from '../infra/db/db.ts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../test/fixtures.ts';

/**
 * Issue 14 item 9: ten 45 MB chunked uploads, never completed, put 450 MB on a 50 MB account's disk for a day.
 * Now each chunk's bytes are held against the quota before they are written (used + held <= quota, in the
 * database, so every server process sees one count), a user keeps at most UPLOAD_SESSIONS_PER_USER sessions open,
 * and a session idle for UPLOAD_SESSION_IDLE_MINUTES goes with its bytes and its hold. Sizes are scaled down
 * (a 5 MB account, 4.5 MB uploads) to keep the test fast; the arithmetic is the attack's.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`unfinished chunked uploads and the quota on ${driver.name}`, () => {
    let t: TestApp;
    /** A second app on its own database connection: another server process sharing the database and data folder. */
    let other: FastifyInstance;
    let otherDb: ReturnType<typeof createDatabase>;
    beforeAll(async () => {
      t = await createTestApp(driver, { WEB_UPLOAD_FILE_SIZE: '20MB', UPLOAD_SESSIONS_PER_USER: '5', UPLOAD_SESSION_IDLE_MINUTES: '30' });
      otherDb = createDatabase(t.db.url, { searchPath: t.db.searchPath, poolSize: 5 });
      other = await buildApp({ ...t.deps, db: otherDb });
    });
    afterAll(async () => {
      await other?.close();
      await otherDb?.destroy();
      await t?.close();
    });

    const init = (token: string, name: string, body: Buffer) => t.call('/cloud/v5/upload/init', { name, size: body.length, md5: md5(body), parentId: '0' }, token);
    const put = async (app: FastifyInstance, token: string, uploadId: string, offset: number, bytes: Buffer) =>
      (await app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${token}&uploadId=${uploadId}&offset=${offset}`, headers: { 'content-type': 'application/octet-stream' }, payload: bytes })).json();
    const complete = (token: string, uploadId: string) => t.call('/cloud/v5/upload/complete', { uploadId }, token);
    /** Sends `body` in chunks, alternating between the two server processes; stops at the first refusal. */
    const send = async (token: string, uploadId: string, body: Buffer, chunk: number) => {
      let offset = 0;
      let i = 0;
      while (offset < body.length) {
        const r = await put(i++ % 2 ? other : t.app, token, uploadId, offset, body.subarray(offset, offset + chunk));
        if (r.rtnCode !== '0000000') return { received: offset, refused: r.bizData?.code as string };
        offset = r.bizData.received;
      }
      return { received: offset, refused: undefined };
    };
    const account = async (uid: string) => {
      const u = await t.db.db.selectFrom('users').select(['storage_used', 'storage_reserved', 'storage_quota']).where('id', '=', uid).executeTakeFirstOrThrow();
      const held = await t.db.db.selectFrom('upload_sessions').select(['reserved']).where('uid', '=', uid).execute();
      return { used: Number(u.storage_used), reserved: Number(u.storage_reserved), quota: Number(u.storage_quota), sessionsHold: held.reduce((s, r) => s + Number(r.reserved), 0), sessions: held.length };
    };
    const partBytes = (uploadIds: string[]) =>
      uploadIds.reduce((sum, id) => {
        const f = path.join(t.dataDir, 'uploads', `session-${id}.part`);
        return sum + (existsSync(f) ? statSync(f).size : 0);
      }, 0);

    it('many unfinished uploads that together pass the quota are refused once their held bytes reach it', async () => {
      const quota = 5_000_000;
      const u = await t.createUser({ quota });
      const bodies = Array.from({ length: 5 }, () => randomBytes(4_500_000));
      const ids: string[] = [];
      for (const [i, b] of bodies.entries()) {
        const r = await init(u.token, `big${i}.dwg`, b);
        expect(r.rtnCode, JSON.stringify(r)).toBe('0000000');
        ids.push(r.bizData.uploadId);
      }
      // every session sends its chunks at once, through both processes (before: 22.5 MB landed on a 5 MB account)
      const results = await Promise.all(ids.map((id, i) => send(u.token, id, bodies[i], 500_000)));
      const accepted = results.reduce((s, r) => s + r.received, 0);
      expect(accepted).toBeLessThanOrEqual(quota);
      expect(accepted).toBeGreaterThan(quota - 500_000 * 2);
      expect(partBytes(ids)).toBeLessThanOrEqual(quota);
      expect(results.filter((r) => r.refused).map((r) => r.refused)).toEqual(Array(results.filter((r) => r.refused).length).fill('upload.noSpace'));
      expect(results.filter((r) => r.refused).length).toBeGreaterThanOrEqual(4);
      const a = await account(u.id);
      // the user's hold is exactly what the sessions hold, and covers every byte on disk
      expect(a.reserved).toBe(a.sessionsHold);
      expect(a.reserved).toBeGreaterThanOrEqual(accepted);
      expect(a.used + a.reserved).toBeLessThanOrEqual(quota);
      // held bytes are not free: an ordinary upload and a new session are refused too
      expect((await t.upload(u.token, 'more.dwg', randomBytes(600_000))).bizData.code).toBe('upload.noSpace');
    });

    it('a user keeps at most UPLOAD_SESSIONS_PER_USER sessions open, also when they are opened all at once', async () => {
      const u = await t.createUser();
      const bodies = Array.from({ length: 12 }, () => randomBytes(1000));
      const r = await Promise.all(bodies.map((b, i) => init(u.token, `s${i}.dwg`, b)));
      expect(r.filter((x) => x.rtnCode === '0000000')).toHaveLength(5);
      const refused = r.filter((x) => x.rtnCode !== '0000000');
      expect(refused.map((x) => x.bizData.code)).toEqual(Array(7).fill('upload.tooManySessions'));
      expect(refused[0].msg).toMatch(/at most 5/);
      expect((await account(u.id)).sessions).toBe(5);
      // resuming an open session is not a new one
      const first = r.findIndex((x) => x.rtnCode === '0000000');
      expect((await init(u.token, `s${first}.dwg`, bodies[first])).bizData.uploadId).toBe(r[first].bizData.uploadId);
      // finishing one frees its place
      expect((await put(t.app, u.token, r[first].bizData.uploadId, 0, bodies[first])).bizData.received).toBe(1000);
      expect((await complete(u.token, r[first].bizData.uploadId)).bizData.complete).toBe(true);
      expect((await init(u.token, 'late.dwg', randomBytes(1000))).rtnCode).toBe('0000000');
    });

    it('an idle session expires: its part file and its hold are freed', async () => {
      const quota = 3_000_000;
      const u = await t.createUser({ quota });
      const body = randomBytes(2_500_000);
      const s = await init(u.token, 'idle.dwg', body);
      await send(u.token, s.bizData.uploadId, body.subarray(0, 2_000_000), 1_000_000);
      expect((await account(u.id)).reserved).toBe(2_000_000);
      expect((await t.upload(u.token, 'blocked.dwg', randomBytes(1_500_000))).bizData.code).toBe('upload.noSpace');
      // a session with a chunk a minute ago stays; one silent for longer than the idle time goes
      const busy = await init(u.token, 'busy.dwg', randomBytes(100));
      await t.db.db.updateTable('upload_sessions').set({ updated_at: Date.now() - 31 * 60_000 }).where('id', '=', s.bizData.uploadId).execute();
      await sweepLeftovers(t.deps, { atStart: false });
      const a = await account(u.id);
      expect(a).toMatchObject({ reserved: 0, sessionsHold: 0, sessions: 1 });
      expect(existsSync(path.join(t.dataDir, 'uploads', `session-${s.bizData.uploadId}.part`))).toBe(false);
      expect(existsSync(path.join(t.dataDir, 'uploads', `session-${busy.bizData.uploadId}.part`))).toBe(true);
      expect(readdirSync(path.join(t.dataDir, 'uploads')).some((f) => f.includes(s.bizData.uploadId))).toBe(false);
      // its chunks are refused now, and the space is free again
      expect((await put(t.app, u.token, s.bizData.uploadId, 2_000_000, body.subarray(2_000_000))).bizData.code).toBe('item.notFound');
      expect((await t.upload(u.token, 'free again.dwg', randomBytes(1_500_000))).rtnCode).toBe('0000000');
    });

    it('completing turns the hold into used storage exactly, with parallel chunks and uploads through both processes', async () => {
      const quota = 12_000_000;
      const u = await t.createUser({ quota });
      const chunked = Array.from({ length: 3 }, () => randomBytes(3_000_000));
      const ids = (await Promise.all(chunked.map((b, i) => init(u.token, `c${i}.dwg`, b)))).map((r) => r.bizData.uploadId as string);
      const whole = Array.from({ length: 4 }, () => randomBytes(300_000));
      const [sent, uploaded] = await Promise.all([
        Promise.all(ids.map((id, i) => send(u.token, id, chunked[i], 256 * 1024))),
        Promise.all(whole.map((b, i) => t.upload(u.token, `w${i}.dwg`, b))),
      ]);
      expect(sent.map((s) => s.refused)).toEqual([undefined, undefined, undefined]);
      expect(uploaded.map((r) => r.rtnCode)).toEqual(Array(4).fill('0000000'));
      expect(await account(u.id)).toMatchObject({ used: 4 * 300_000, reserved: 3 * 3_000_000, sessionsHold: 3 * 3_000_000 });
      const done = await Promise.all(ids.map((id) => complete(u.token, id)));
      expect(done.map((d) => d.bizData.complete)).toEqual([true, true, true]);
      // a second completion of a finished session changes nothing
      expect((await complete(u.token, ids[0])).bizData.code).toBe('item.notFound');
      expect(await account(u.id)).toMatchObject({ used: 3 * 3_000_000 + 4 * 300_000, reserved: 0, sessions: 0 });
      // the account is at 10.2 of 12 MB: a file that exactly fills it goes through chunked and completes
      const last = randomBytes(quota - (3 * 3_000_000 + 4 * 300_000));
      const l = await init(u.token, 'last.dwg', last);
      expect((await send(u.token, l.bizData.uploadId, last, 700_000)).refused).toBeUndefined();
      expect((await complete(u.token, l.bizData.uploadId)).bizData.complete).toBe(true);
      expect(await account(u.id)).toMatchObject({ used: quota, reserved: 0, sessions: 0 });
      expect(partBytes([...ids, l.bizData.uploadId])).toBe(0);
    });

    it('a failed completion gives the hold back (wrong MD5)', async () => {
      const u = await t.createUser({ quota: 2_000_000 });
      const body = randomBytes(1_500_000);
      const s = await t.call('/cloud/v5/upload/init', { name: 'liar.dwg', size: body.length, md5: md5(randomBytes(4)), parentId: '0' }, u.token);
      await send(u.token, s.bizData.uploadId, body, 1_000_000);
      expect((await account(u.id)).reserved).toBe(1_500_000);
      expect((await complete(u.token, s.bizData.uploadId)).bizData.code).toBe('upload.md5Mismatch');
      expect(await account(u.id)).toMatchObject({ used: 0, reserved: 0, sessions: 0 });
    });
  });
}
