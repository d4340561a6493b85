import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gltfIO } from '@cadcloud/model3d';
import { asciiStl, cube } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { createSharesService } from '../shares/shares.service.ts';
import { registerModel3dJobs } from './model3d.jobs.ts';

const P = '/cloud/v5/file/task/';
const STATUS = '/cloud/v5/share/status3D';
/** the grant a signed link carries (signed, not encrypted: its holder reads it) */
const grantOf = (url: string) => JSON.parse(Buffer.from(new URL(url, 'http://x').searchParams.get('g')!.split('.')[0], 'base64url').toString('utf8'));

for (const driver of testDatabaseDrivers()) {
  describe(`a shared 3D model seen through its share on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver, { FREE_3D_TRIALS: 'unlimited' });
      registerModel3dJobs(t.deps.queue, t.deps);
    });
    afterAll(async () => t?.close());

    it('the recipient opens the GLB the sharer converted, learns nothing else of theirs; a cancelled share stops the link', async () => {
      const owner = await t.createUser();
      const visitor = await t.createUser();
      const up = async (name: string, body: string) => (await t.upload(owner.token, name, Buffer.from(body))).bizData;
      const shared = await up('shared.stl', asciiStl());
      const raw = await up('raw.stl', asciiStl('raw', cube(5)));
      const secret = await up('secret.stl', asciiStl('secret', cube(7)));
      for (const f of [shared, secret]) expect((await t.call(`${P}transformBatch3D`, { fileIds: [f.id], isTransForm: true }, owner.token)).rtnCode).toBe('0000000');
      for (const f of [shared, secret]) await until(async () => (await t.call(`${P}checkTaskStatus3D`, { fileId: f.id }, owner.token)).bizData.transformStatus === 1, 120_000);

      const share = (await t.call('/cloud/v5/share/create', { fileIds: [shared.id, raw.id], folderIds: [], kind: 'link', password: '', canDownload: false }, owner.token)).bizData;
      expect(share.shareId).toBeTruthy();
      const token = await createSharesService(t.deps).issueShareToken(share.shareId);

      // signed out, with the token: the converted model, its link through the share, which serves the GLB
      const s = await t.call(STATUS, { shareToken: token, fileId: shared.id });
      expect(s.rtnCode).toBe('0000000');
      expect(s.bizData).toMatchObject({ fileId: shared.id, name: 'shared.stl', transformStatus: 1, stage: 'done', stats: { triangles: 12 } });
      const glb = await t.fetchSigned(s.bizData.glbUrl);
      expect(glb.status).toBe(200);
      const doc = await (await gltfIO()).readBinary(new Uint8Array(glb.body));
      expect(doc.getRoot().listMeshes().length).toBeGreaterThan(0);
      // nothing of the owner's beyond the grant: no user id, no hash, in the answer or the link
      const seen = JSON.stringify(s.bizData) + JSON.stringify(grantOf(s.bizData.glbUrl));
      expect(seen).not.toContain(owner.id);
      expect(seen).not.toContain(shared.fileMD5);
      expect(grantOf(s.bizData.glbUrl)).toMatchObject({ k: 'glb-share', s: share.shareId, f: shared.id });
      // a signed-in visitor with the token: the same
      expect((await t.call(STATUS, { shareToken: token, fileId: shared.id }, visitor.token)).bizData.transformStatus).toBe(1);

      // shared but never converted: 3, no link; the recipient cannot convert the sharer's file
      expect((await t.call(STATUS, { shareToken: token, fileId: raw.id })).bizData).toMatchObject({ transformStatus: 3, glbUrl: null });
      expect((await t.call(`${P}transformBatch3D`, { fileIds: [raw.id], isTransForm: true }, visitor.token)).bizData.code).toBe('item.notFound');
      // converted but not in the share: not found, as any file outside it; no token or a bad one: refused
      expect((await t.call(STATUS, { shareToken: token, fileId: secret.id })).bizData.code).toBe('item.notFound');
      expect((await t.call(STATUS, { fileId: shared.id })).bizData.code).toBe('share.tokenInvalid');
      expect((await t.call(STATUS, { shareToken: `${token}x`, fileId: shared.id })).bizData.code).toBe('share.tokenInvalid');
      // the owner's own GLB link cannot be made into another file's: the grant is signed
      const forged = new URL(s.bizData.glbUrl, 'http://x');
      const [body, mac] = forged.searchParams.get('g')!.split('.');
      const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString('utf8')), f: secret.id })).toString('base64url');
      expect((await t.fetchSigned(`${forged.pathname}?g=${other}.${mac}`)).status).not.toBe(200);

      // the share cancelled: the link issued before stops, and so does the status
      expect((await t.call('/cloud/v5/share/cancel', { shareIds: [share.shareId] }, owner.token)).rtnCode).toBe('0000000');
      expect((await t.fetchSigned(s.bizData.glbUrl)).status).not.toBe(200);
      expect((await t.call(STATUS, { shareToken: token, fileId: shared.id })).rtnCode).not.toBe('0000000');
    }, 240_000);

    it('documents share/status3D and list3D in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([STATUS, `${P}list3D`]));
    });
  });
}
