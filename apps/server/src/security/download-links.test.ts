/**
 * Issue 14, item 12: bearer links outlived their reason. Before: a signed download URL worked for an hour after the
 * share was cancelled or the file binned or deleted, and a group member's share token worked for anyone. Now every
 * download link lives minutes and its grant is checked again when it is used; a group share's token (and its
 * links) belong to the member's session while they are a member. On SQLite and PostgreSQL; the S3 redirect
 * against a real signature-checking S3 server when TEST_S3_ENDPOINT is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAsciiDxf } from '../../../../packages/cad/src/testing/dxf-writer.ts';
import { writeShapesFont } from '../../../../packages/cad/src/text/testing/shx-writer.ts';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, s3TestEnv, type TestApp } from '../test/fixtures.ts';
import { extractWithProof } from '../test/share-proof.ts';
import { until } from '../test/until.ts';
import { downloadLink } from '../modules/downloads/download-links.ts';

type User = { id: string; email: string; token: string };
const drawing = (label: string) => Buffer.from(writeAsciiDxf({ entities: [{ type: 'TEXT', pairs: [[8, '0'], [10, 0], [20, 0], [40, 5], [1, label]] }] }));

/** A link's outcome: 'ok' with the bytes, or the refusal's code (403 with the envelope). */
async function use(t: TestApp, url: string, token?: string): Promise<{ what: string; body: Buffer }> {
  const r = await t.fetchSigned(url, token);
  if (r.status === 200) return { what: 'ok', body: r.body };
  expect(r.status, r.body.toString()).toBe(403);
  return { what: JSON.parse(r.body.toString()).bizData.code, body: r.body };
}

for (const driver of testDatabaseDrivers()) {
  describe(`download links on ${driver.name}`, () => {
    let t: TestApp;
    let a: User;
    let n = 0;
    const call = (p: string, data: unknown, u?: User) => t.call(`/cloud/v5/${p}`, data, u?.token);
    const upload = async (u: User, name: string, body: Buffer, parentId = '0') => (await t.upload(u.token, name, body, { parentId })).bizData.id as string;
    const linkShare = async (data: object) => {
      const s = (await call('share/create', { canDownload: true, ...data }, a)).bizData;
      const x = await extractWithProof(t, { rand: s.rand, code: s.code }, `10.9.${n}.1`);
      return { s, token: x.bizData.shareToken as string };
    };
    const shareLink = async (token: string, fileId: string, u?: User) => {
      const r = await call('share/download', { shareToken: token, fileId }, u);
      expect(r.rtnCode, JSON.stringify(r)).toBe('0000000');
      return r.bizData.signedUrl as string;
    };

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
    });
    afterAll(async () => t?.close());

    it('lives minutes, and a tampered or expired link is refused', async () => {
      n++;
      const f = await upload(a, `mine-${n}.dxf`, drawing('mine'));
      const url = (await call('file/download', { fileId: f }, a)).bizData.signedUrl as string;
      const g = new URL(url).searchParams.get('g')!;
      const exp = JSON.parse(Buffer.from(g.split('.')[0], 'base64url').toString()).x as number;
      expect(exp - Date.now()).toBeGreaterThan(60_000);
      expect(exp - Date.now()).toBeLessThanOrEqual(300_000);
      expect((await use(t, url)).what).toBe('ok');
      const [body, mac] = g.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), x: Date.now() + 86_400_000 })).toString('base64url');
      expect((await use(t, url.replace(g, `${forged}.${mac}`))).what).toBe('download.linkExpired');
      const old = downloadLink(t.deps, { k: 'file', u: a.id, f, b: JSON.parse(Buffer.from(body, 'base64url').toString()).b }, Date.now() - 301_000);
      const refused = await t.fetchSigned(`${old.url}&lang=en`);
      expect([refused.status, JSON.parse(refused.body.toString()).msg]).toEqual([403, 'The download link is no longer valid, please download again']);
    }, 60_000);

    it('a share link stops when the share is cancelled, when the file is binned, deleted or moved out of the shared folder', async () => {
      n++;
      const folder = (await call('folder/edit', { parentId: '0', name: `Shared-${n}` }, a)).bizData.id as string;
      const inFolder = await upload(a, 'in.dxf', drawing('in'), folder);
      const moved = await upload(a, 'moved.dxf', drawing('moved'), folder);
      const binned = await upload(a, 'binned.dxf', drawing('binned'), folder);
      const deleted = await upload(a, 'deleted.dxf', drawing('deleted'), folder);
      const loose = await upload(a, `loose-${n}.dxf`, drawing('loose'));
      const viaFolder = await linkShare({ folderIds: [folder], validDays: 0 });
      const viaFile = await linkShare({ fileIds: [loose] });
      const links = Object.fromEntries(await Promise.all(Object.entries({ inFolder, moved, binned, deleted }).map(async ([k, id]) => [k, await shareLink(viaFolder.token, id)] as const)));
      const looseLink = await shareLink(viaFile.token, loose);
      for (const u of [...Object.values(links), looseLink]) expect((await use(t, u)).what).toBe('ok');
      // an anonymous visitor's link needs no session (it came from a link share)
      expect((await use(t, links.inFolder)).body.equals(drawing('in'))).toBe(true);

      await call('union/move', { fileIds: [moved], moveToId: '0' }, a);
      await call('union/delete', { fileIds: [binned, deleted] }, a);
      await call('union/delete', { fileIds: [deleted], deleteLevel: 1 }, a);
      expect((await use(t, links.moved)).what).toBe('item.notFound');
      expect((await use(t, links.binned)).what).toBe('item.notFound');
      expect((await use(t, links.deleted)).what).toBe('item.notFound');
      expect((await use(t, links.inFolder)).what).toBe('ok');
      // binning the only shared file: the share no longer exists, so does the link
      await call('union/delete', { fileIds: [loose] }, a);
      expect((await use(t, looseLink)).what).toBe('share.deleted');
      // cancelling ends every link of the share at once
      await call('share/cancel', { shareIds: [viaFolder.s.shareId] }, a);
      expect((await use(t, links.inFolder)).what).toBe('share.cancelled');
    }, 120_000);

    it("the owner's own links stop with the file, the version, the zip and the font they were given for", async () => {
      n++;
      const f = await upload(a, `own-${n}.dxf`, drawing('v1'));
      const own = (await call('file/download', { fileId: f }, a)).bizData.signedUrl as string;
      // a version, then the version deleted
      const source = await upload(a, `source-${n}.dxf`, drawing('v2'));
      expect((await call('version/copy', { fileId: f, sourceFileId: source }, a)).rtnCode).toBe('0000000');
      expect((await use(t, own)).what).toBe('item.notFound'); // the file now has other bytes: ask again
      const versions = (await call('version/history', { fileId: f }, a)).bizData.list as { versionId: string; isLatest: number }[];
      const v1 = versions.find((v) => v.isLatest !== 1)!.versionId;
      const vLink = (await call('version/download', { versionId: v1 }, a)).bizData.signedUrl as string;
      expect((await use(t, vLink)).body.equals(drawing('v1'))).toBe(true);
      expect((await call('version/delete', { versionId: v1 }, a)).rtnCode).toBe('0000000');
      expect((await use(t, vLink)).what).toBe('item.notFound');

      // a zip of a folder, then the folder binned; another zip, then its task cancelled
      const zipOf = async (folderIds: string[]) => {
        const task = (await call('file/downloadBatchZip', { fileIds: [], folderIds }, a)).bizData.taskId as string;
        await until(async () => (await call('zip/task/taskStatus', { taskId: task }, a)).bizData.status === 2, 60_000);
        return { task, url: (await call('file/downloadBatchTempUrl', { taskId: task }, a)).bizData.signedUrl as string };
      };
      const d1 = (await call('folder/edit', { parentId: '0', name: `zip-a-${n}` }, a)).bizData.id as string;
      const d2 = (await call('folder/edit', { parentId: '0', name: `zip-b-${n}` }, a)).bizData.id as string;
      await upload(a, 'z1.dxf', drawing('z1'), d1);
      await upload(a, 'z2.dxf', drawing('z2'), d2);
      const z1 = await zipOf([d1]);
      const z2 = await zipOf([d2]);
      expect((await use(t, z1.url)).what).toBe('ok');
      await call('union/delete', { folderIds: [d1] }, a);
      expect((await use(t, z1.url)).what).toBe('item.notFound');
      await call('zip/task/cancel', { taskId: z2.task }, a);
      expect((await use(t, z2.url)).what).toBe('item.notFound');

      // a font, then the font deleted
      const boundary = `----font${n}`;
      const font = writeShapesFont('F', 6, 2, [{ code: 65, name: 'A', bytes: [2, 8, 0, 6, 1, 0x60, 0] }]);
      const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="f-${n}.shx"\r\nContent-Type: application/octet-stream\r\n\r\n`), Buffer.from(font), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const up = (await t.app.inject({ method: 'POST', url: `/cloud/v5/font/upload?utoken=${encodeURIComponent(a.token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body })).json();
      expect(up.rtnCode, JSON.stringify(up)).toBe('0000000');
      const fontId = (up.bizData.id ?? up.bizData.fileId) as string;
      const fLink = (await call('font/download', { id: fontId }, a)).bizData.signedUrl as string;
      expect((await use(t, fLink)).what).toBe('ok');
      await call('union/delete', { fontIds: [fontId] }, a);
      expect((await use(t, fLink)).what).toBe('item.notFound');
    }, 180_000);

    it("a group member's token and links are theirs alone, and stop when they leave the group", async () => {
      n++;
      const member = await t.createUser();
      const other = await t.createUser();
      const outsider = await t.createUser();
      const g = (await call('group/create', { name: `g-${n}`, introduction: '' }, a)).bizData.groupId as string;
      for (const u of [member, other]) expect((await call('group/addMember', { groupId: g, email: u.email }, a)).rtnCode).toBe('0000000');
      const f = await upload(a, `group-${n}.dxf`, drawing('group'));
      expect((await call('group/share', { groupIds: [g], fileIds: [f], canDownload: true }, a)).rtnCode).toBe('0000000');
      const shareId = (await call('group/shares', { groupId: g }, member)).bizData.list[0].shareId as string;
      const token = (await call('group/openShare', { groupId: g, shareId }, member)).bizData.shareToken as string;
      const scene = (u?: User) => t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${f}&shareToken=${encodeURIComponent(token)}${u ? `&utoken=${encodeURIComponent(u.token)}` : ''}`, headers: { 'accept-language': 'en' } });

      expect((await call('share/files', { shareToken: token }, member)).rtnCode).toBe('0000000');
      expect((await scene(member)).statusCode).toBe(200);
      for (const [who, u] of [['anonymous', undefined], ['outsider', outsider], ['another member', other]] as const) {
        expect([who, (await call('share/files', { shareToken: token }, u)).bizData.code]).toEqual([who, 'share.tokenInvalid']);
        expect([who, (await call('share/download', { shareToken: token, fileId: f }, u)).bizData.code]).toEqual([who, 'share.tokenInvalid']);
        expect([who, (await call('file/getProductItemById', { shareToken: token, fileId: f }, u)).bizData.code]).toEqual([who, 'share.tokenInvalid']);
        expect([who, (await scene(u)).json().bizData.code]).toEqual([who, 'share.tokenInvalid']);
      }
      const url = await shareLink(token, f, member);
      expect((await use(t, url, member.token)).body.equals(drawing('group'))).toBe(true);
      expect((await use(t, url)).what).toBe('share.tokenInvalid');
      expect((await use(t, url, outsider.token)).what).toBe('share.tokenInvalid');

      // removed from the group: the token and the link stop at once
      expect((await call('group/removeMember', { groupId: g, uid: member.id }, a)).rtnCode).toBe('0000000');
      expect((await call('share/files', { shareToken: token }, member)).rtnCode).not.toBe('0000000');
      expect((await use(t, url, member.token)).what).not.toBe('ok');
    }, 120_000);
  });
}

const s3 = s3TestEnv('links');
describe.runIf(s3)('download links on S3 (signature-checking server)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0], s3!);
  });
  afterAll(async () => t?.close());

  it('checks the grant, then redirects to a presigned URL of a minute; a cancelled share is refused before any URL', async () => {
    const a = await t.createUser();
    const body = drawing('on s3');
    const f = (await t.upload(a.token, 's3.dxf', body)).bizData.id as string;
    const s = (await t.call('/cloud/v5/share/create', { fileIds: [f], canDownload: true }, a.token)).bizData;
    const token = (await extractWithProof(t, { rand: s.rand, code: s.code }, '10.10.0.1')).bizData.shareToken as string;
    const url = (await t.call('/cloud/v5/share/download', { shareToken: token, fileId: f })).bizData.signedUrl as string;
    const r = await t.fetchSigned(url);
    expect(r.status).toBe(302);
    const target = new URL(String(r.headers.location));
    expect(target.searchParams.get('X-Amz-Expires')).toBe('60');
    const got = await fetch(target);
    expect(Buffer.from(await got.arrayBuffer()).equals(body)).toBe(true);
    await t.call('/cloud/v5/share/cancel', { shareIds: [s.shareId] }, a.token);
    const after = await t.fetchSigned(url);
    expect([after.status, JSON.parse(after.body.toString()).bizData.code]).toEqual([403, 'share.cancelled']);
  }, 60_000);
});
