/**
 * Issue 14, item 3: the drive's tree and names under concurrent requests, on SQLite and PostgreSQL.
 * Attacks: A→B while B→A (and a three-way cycle) committed both moves and made the folders vanish in a loop;
 * parallel creates, renames and uploads of one name made several live items of that name in one folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, md5, type TestApp } from '../test/fixtures.ts';
import { possessionFor } from '../test/possession-proof.ts';

const MOVE_TRIES = 20;
const CYCLE3_TRIES = 10;

for (const driver of testDatabaseDrivers()) {
  describe(`folder races on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      // ten chunked uploads race below: more open sessions than a user may have by default (UPLOAD_SESSIONS_PER_USER)
      t = await createTestApp(driver, { UPLOAD_SESSIONS_PER_USER: '10' });
    });
    afterAll(async () => t?.close());

    const folder = async (token: string, name: string, parentId = '0') => {
      const r = await t.call('/cloud/v5/folder/edit', { parentId, name }, token);
      expect(r.rtnCode, r.msg).toBe('0000000');
      return r.bizData.id as string;
    };

    /** Live folders of the user whose parent chain never reaches the root (a cycle, or hanging below one). */
    async function lostFolders(uid: string): Promise<string[]> {
      const rows = await t.db.db.selectFrom('items').select(['id', 'parent_id']).where('uid', '=', uid).where('kind', '=', 0).where('deleted_at', 'is', null).execute();
      const parent = new Map(rows.map((r) => [r.id, r.parent_id]));
      return rows
        .filter((r) => {
          let at = r.id;
          for (let i = 0; i <= rows.length; i++) {
            const p = parent.get(at);
            if (p === undefined) return at !== '0';
            if (p === '0') return false;
            at = p;
          }
          return true;
        })
        .map((r) => r.id);
    }

    /** Live names in a folder that occur more than once. */
    async function duplicateNames(uid: string, parentId: string): Promise<string[]> {
      const rows = await t.db.db.selectFrom('items').select('name').where('uid', '=', uid).where('parent_id', '=', parentId).where('deleted_at', 'is', null).execute();
      const seen = new Set<string>();
      return rows.map((r) => r.name).filter((n) => seen.has(n) || (seen.add(n), false));
    }

    it(`A→B while B→A never commits a cycle (${MOVE_TRIES} tries), nor a three-way one (${CYCLE3_TRIES} tries)`, async () => {
      const u = await t.createUser();
      let cycles2 = 0;
      const refusals: string[] = [];
      for (let i = 0; i < MOVE_TRIES; i++) {
        const a = await folder(u.token, `A${i}`);
        const b = await folder(u.token, `B${i}`);
        const [ab, ba] = await Promise.all([
          t.call('/cloud/v5/union/move', { folderIds: [a], moveToId: b }, u.token),
          t.call('/cloud/v5/union/move', { folderIds: [b], moveToId: a }, u.token),
        ]);
        if (ab.rtnCode === '0000000' && ba.rtnCode === '0000000') cycles2++;
        for (const r of [ab, ba]) if (r.rtnCode !== '0000000') refusals.push(r.bizData?.code ?? r.rtnCode);
      }
      let cycles3 = 0;
      for (let i = 0; i < CYCLE3_TRIES; i++) {
        const [a, b, c] = [await folder(u.token, `X${i}`), await folder(u.token, `Y${i}`), await folder(u.token, `Z${i}`)];
        const r = await Promise.all([
          t.call('/cloud/v5/union/move', { folderIds: [a], moveToId: b }, u.token),
          t.call('/cloud/v5/union/move', { folderIds: [b], moveToId: c }, u.token),
          t.call('/cloud/v5/union/move', { folderIds: [c], moveToId: a }, u.token),
        ]);
        if (r.every((x) => x.rtnCode === '0000000')) cycles3++;
        for (const x of r) if (x.rtnCode !== '0000000') refusals.push(x.bizData?.code ?? x.rtnCode);
      }
      const lost = await lostFolders(u.id);
      console.info(`[${driver.name}] move races: two-way cycles ${cycles2}/${MOVE_TRIES}, three-way cycles ${cycles3}/${CYCLE3_TRIES}, ${lost.length} folders lost from the tree`);
      expect(cycles2 + cycles3).toBe(0);
      expect(lost).toEqual([]);
      // exactly one move of each race is refused, as a folder moved into itself (never a server error)
      expect(refusals).toEqual(Array(MOVE_TRIES + CYCLE3_TRIES).fill('move.intoItself'));
    });

    it('30 parallel creates of one name make one folder, and with autorename 30 distinct names', async () => {
      const u = await t.createUser();
      const plain = await Promise.all(Array.from({ length: 30 }, () => t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Same' }, u.token)));
      const made = plain.filter((r) => r.rtnCode === '0000000').length;
      const box = await folder(u.token, 'Box');
      const auto = await Promise.all(Array.from({ length: 30 }, () => t.call('/cloud/v5/folder/edit', { parentId: box, name: 'Same', autorename: true }, u.token)));
      const names = auto.map((r) => r.bizData.name);
      console.info(`[${driver.name}] 30 parallel creates: ${made} folders named "Same"; with autorename ${new Set(names).size} distinct names of 30`);
      expect(made).toBe(1);
      for (const r of plain) if (r.rtnCode !== '0000000') expect(r.bizData.code).toBe('name.duplicateFolder');
      expect(auto.every((r) => r.rtnCode === '0000000')).toBe(true);
      expect(new Set(names).size).toBe(30);
      expect(names).toContain('Same');
      expect(names).toContain('Same (29)');
      expect(await duplicateNames(u.id, '0')).toEqual([]);
      expect(await duplicateNames(u.id, box)).toEqual([]);
    });

    it('parallel renames with autorename give distinct names (files and folders)', async () => {
      const u = await t.createUser();
      const files = [];
      for (let i = 0; i < 12; i++) files.push((await t.upload(u.token, `f${i}.dwg`, randomBytes(16))).bizData.id);
      const folders = [];
      for (let i = 0; i < 12; i++) folders.push(await folder(u.token, `d${i}`));
      const r = await Promise.all([
        ...files.map((fileId) => t.call('/cloud/v5/file/edit', { fileId, name: 'plan.dwg', autorename: true }, u.token)),
        ...folders.map((folderId) => t.call('/cloud/v5/folder/edit', { folderId, name: 'Dir', autorename: true }, u.token)),
      ]);
      const dup = await duplicateNames(u.id, '0');
      console.info(`[${driver.name}] parallel renames with autorename: ${dup.length} duplicate live names (of 24 renamed items)`);
      expect(r.every((x) => x.rtnCode === '0000000')).toBe(true);
      expect(dup).toEqual([]);
      // without autorename the losers hear "duplicate"
      const plain = await Promise.all(files.slice(0, 6).map((fileId) => t.call('/cloud/v5/file/edit', { fileId, name: 'only.dwg' }, u.token)));
      expect(plain.filter((x) => x.rtnCode === '0000000')).toHaveLength(1);
      for (const x of plain) if (x.rtnCode !== '0000000') expect(x.bizData.code).toBe('name.duplicateFile');
      expect(await duplicateNames(u.id, '0')).toEqual([]);
    });

    it('parallel moves with autoRename of same-name items into one folder keep names distinct', async () => {
      const u = await t.createUser();
      const target = await folder(u.token, 'Target');
      const sources = [];
      for (let i = 0; i < 8; i++) {
        const src = await folder(u.token, `S${i}`);
        sources.push((await t.upload(u.token, 'same.dwg', randomBytes(16), { parentId: src })).bizData.id);
      }
      const r = await Promise.all(sources.map((fileId) => t.call('/cloud/v5/union/move', { fileIds: [fileId], moveToId: target, autoRename: true }, u.token)));
      const dup = await duplicateNames(u.id, target);
      console.info(`[${driver.name}] 8 parallel moves with autoRename of "same.dwg": ${dup.length} duplicate live names`);
      expect(r.every((x) => x.rtnCode === '0000000')).toBe(true);
      expect(dup).toEqual([]);
    });

    it('20 parallel same-name uploads (multipart, instant, chunked) make 20 distinct names', async () => {
      const u = await t.createUser();
      const multipart = await Promise.all(Array.from({ length: 20 }, () => t.upload(u.token, 'same.dwg', randomBytes(64))));
      const multipartNames = new Set(multipart.map((r) => r.bizData.name));
      const box = await folder(u.token, 'Instant');
      // instant: bytes another user stored already
      const other = await t.createUser();
      const known = [];
      for (let i = 0; i < 20; i++) {
        const body = randomBytes(64);
        await t.upload(other.token, `k${i}.dwg`, body);
        known.push(body);
      }
      // (stored for another user: each asks a proof of possession first, then the 20 placements race)
      const ask = (b: Buffer) => ({ parentId: box, name: 'same.dwg', md5: md5(b), size: b.length });
      const challenges = await Promise.all(known.map((b) => t.call('/cloud/v5/file/detectUpload', ask(b), u.token)));
      const instant = await Promise.all(known.map((b, i) => t.call('/cloud/v5/file/detectUpload', { ...ask(b), possession: possessionFor(b, challenges[i].bizData.possession) }, u.token)));
      const instantNames = new Set(instant.map((r) => r.bizData.item?.name));
      const cbox = await folder(u.token, 'Chunked');
      const chunked = await Promise.all(Array.from({ length: 10 }, async () => {
        const body = randomBytes(100);
        const init = await t.call('/cloud/v5/upload/init', { parentId: cbox, name: 'same.dwg', md5: md5(body), size: body.length }, u.token);
        await t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${encodeURIComponent(u.token)}&uploadId=${init.bizData.uploadId}&offset=0`, payload: body, headers: { 'content-type': 'application/octet-stream' } });
        return t.call('/cloud/v5/upload/complete', { uploadId: init.bizData.uploadId }, u.token);
      }));
      const chunkedNames = new Set(chunked.map((r) => r.bizData.item?.name));
      console.info(`[${driver.name}] parallel same-name uploads: multipart ${multipartNames.size}/20 distinct, instant ${instantNames.size}/20, chunked ${chunkedNames.size}/10`);
      for (const r of [...multipart, ...instant, ...chunked]) expect(r.rtnCode, `${r.msg} ${JSON.stringify(r.bizData)}`).toBe('0000000');
      expect(multipartNames.size).toBe(20);
      expect(instantNames.size).toBe(20);
      expect(chunkedNames.size).toBe(10);
      expect(await duplicateNames(u.id, '0')).toEqual([]);
      expect(await duplicateNames(u.id, box)).toEqual([]);
      expect(await duplicateNames(u.id, cbox)).toEqual([]);
      // storage counts each file once, and nothing of a lost race
      expect((await t.usage(u.id)).used).toBe(20 * 64 + 20 * 64 + 10 * 100);
    });

    it('parallel folder uploads share their intermediate folders', async () => {
      const u = await t.createUser();
      const r = await Promise.all(Array.from({ length: 12 }, (_, i) => t.upload(u.token, `p${i}.dwg`, randomBytes(32), { parentId: '0', relativePath: `Project/Sub/p${i}.dwg` })));
      const root = await t.call('/cloud/v5/union/list', {}, u.token);
      console.info(`[${driver.name}] 12 parallel folder uploads into Project/Sub: ${r.filter((x) => x.rtnCode !== '0000000').length} failed, top level ${JSON.stringify(root.bizData.list.map((i: any) => i.name))}`);
      for (const x of r) expect(x.rtnCode, x.msg).toBe('0000000');
      expect(root.bizData.list.map((i: any) => i.name)).toEqual(['Project']);
      const sub = await t.call('/cloud/v5/union/list', { parentId: root.bizData.list[0].id }, u.token);
      expect(sub.bizData.list.map((i: any) => i.name)).toEqual(['Sub']);
      expect((await t.call('/cloud/v5/union/list', { parentId: sub.bizData.list[0].id }, u.token)).bizData.total).toBe(12);
    });

    it('parallel restores of same-name items from the bin keep names distinct', async () => {
      const u = await t.createUser();
      const ids = [];
      for (let i = 0; i < 8; i++) {
        const id = (await t.upload(u.token, 'back.dwg', randomBytes(16))).bizData.id;
        await t.call('/cloud/v5/union/delete', { deleteLevel: 0, fileIds: [id] }, u.token);
        ids.push(id);
      }
      const r = await Promise.all(ids.map((id) => t.call('/cloud/v5/trash/restore', { fileIds: [id] }, u.token)));
      const dup = await duplicateNames(u.id, '0');
      console.info(`[${driver.name}] 8 parallel restores of "back.dwg": ${dup.length} duplicate live names`);
      for (const x of r) expect(x.rtnCode, x.msg).toBe('0000000');
      expect(dup).toEqual([]);
    });
  });
}
