import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBounds } from '@gltf-transform/core';
import sharp from 'sharp';
import { gltfIO, MODEL3D_FORMATS } from '@cadcloud/model3d';
import { TYPE_GROUPS, VipType } from '@cadcloud/contracts';
import { asciiStl, obj } from '../../../../../packages/model3d/src/fixtures/mesh.ts';
import { stepPart } from '../../../../../packages/model3d/src/fixtures/step.ts';
import { solidsDxf, SOLIDS_BBOX } from '../../../../../packages/model3d/src/fixtures/drawing.ts';
import { writeAsciiDxf } from '@cadcloud/cad/testing/dxf';
import { sphereTriangles, spheresGlb } from '../../../../../packages/model3d/src/fixtures/spheres.ts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { until } from '../../test/until.ts';
import { placeDirectly } from '../../test/place-directly.ts';
import { registerModel3dJobs } from './model3d.jobs.ts';
import { createModel3dService } from './model3d.service.ts';
import { glbKey, lodKey } from './model3d.keys.ts';

const P = '/cloud/v5/file/task/';
const STEP_CUBE = stepPart({ name: 'Block', min: [0, 0, 0], max: [20, 10, 5] });

async function readGlb(bytes: Buffer) {
  const doc = await (await gltfIO()).readBinary(new Uint8Array(bytes));
  const root = doc.getRoot();
  let triangles = 0;
  for (const n of root.listNodes()) for (const p of n.getMesh()?.listPrimitives() ?? []) triangles += (p.getIndices()?.getCount() ?? 0) / 3;
  const b = getBounds(root.getDefaultScene()!);
  return { triangles, min: [...b.min], max: [...b.max], names: root.listNodes().map((n) => n.getName()) };
}
const near = (a: number[], b: number[]) => a.forEach((v, i) => expect(Math.abs(v - b[i])).toBeLessThan(0.01));

for (const driver of testDatabaseDrivers()) {
  describe(`3D models on ${driver.name}`, () => {
    let t: TestApp;
    let superUser: Awaited<ReturnType<TestApp['createUser']>>;
    const status = async (token: string, fileId: string) => (await t.call(`${P}checkTaskStatus3D`, { fileId }, token)).bizData;
    const settled = (token: string, fileId: string) => until(async () => {
      const s = await status(token, fileId);
      return s.transformStatus !== 0 ? s : undefined;
    }, 120_000);
    const remaining = async (token: string) => (await t.call(`${P}checkTransformSuplus3D`, {}, token)).bizData;
    const convert = (token: string, fileIds: string[]) => t.call(`${P}transformBatch3D`, { fileIds, isTransForm: true }, token);


    beforeAll(async () => {
      // limits low enough for small generated models: refused above 50 000 triangles, a coarse level above 20 000
      t = await createTestApp(driver, { FREE_3D_TRIALS: '2', MODEL3D_MAX_TRIANGLES: '50000', MODEL3D_LOD_ABOVE_TRIANGLES: '20000', MODEL3D_LOD_TARGET_TRIANGLES: '2000' });
      registerModel3dJobs(t.deps.queue, t.deps);
      superUser = await t.createUser();
      await t.db.db.updateTable('users').set({ vip_type: VipType.SUPER }).where('id', '=', superUser.id).execute();
    });
    afterAll(async () => t?.close());

    it('a super member converts an STL, an OBJ and a STEP cube; the GLB behind glbUrl has their triangles and bounds, the file its thumbnail', async () => {
      expect(await remaining(superUser.token)).toEqual({ remaining: null, superMember: true });
      const stl = (await t.upload(superUser.token, 'cube.stl', Buffer.from(asciiStl()))).bizData;
      const objFile = (await t.upload(superUser.token, 'cube.obj', Buffer.from(obj()))).bizData;
      const step = (await t.upload(superUser.token, 'block.step', Buffer.from(STEP_CUBE))).bizData;
      const before = await t.usage(superUser.id);
      const r = await convert(superUser.token, [stl.id, objFile.id, step.id]);
      expect(r.rtnCode).toBe('0000000');
      expect(r.bizData.allDone).toBe(false);
      expect(r.bizData.list.map((s: any) => s.transformStatus)).toEqual([0, 0, 0]);
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: stl.id }, superUser.token)).bizData.transformStatus).toBe(0);
      for (const [file, tris, min, max] of [[stl, 12, [0, 0, 0], [10, 10, 10]], [objFile, 12, [0, 0, 0], [10, 10, 10]], [step, 12, [0, 0, 0], [20, 10, 5]]] as const) {
        const s = await settled(superUser.token, file.id);
        expect(s).toMatchObject({ transformStatus: 1, progress: 100, stage: 'done', code: null, msg: null });
        expect(s.stats.triangles).toBe(tris);
        const glb = await t.fetchSigned(s.glbUrl, superUser.token);
        expect(glb.status).toBe(200);
        const back = await readGlb(glb.body);
        expect(back.triangles).toBe(tris);
        // STEP keeps Z up (extras.upAxis), mesh formats as written: the bounds are the source's
        near(s.stats.bbox.min, min as unknown as number[]);
        near(s.stats.bbox.max, max as unknown as number[]);
        const info = (await t.call('/cloud/v5/file/getFileInfo', { fileId: file.id }, superUser.token)).bizData;
        expect(info.transformStatus).toBe(1);
        expect(info.thumbkey).toMatch(/^v\d+-[a-f0-9]{32}\.png$/);
        const thumb = await t.app.inject({ method: 'GET', url: `/cloud/v5/file/thumb/${info.thumbkey}?utoken=${encodeURIComponent(superUser.token)}` });
        expect(thumb.statusCode).toBe(200);
        expect((await sharp(thumb.rawPayload).metadata()).format).toBe('png');
      }
      expect((await readGlb((await t.fetchSigned((await status(superUser.token, step.id)).glbUrl, superUser.token)).body)).names).toContain('Block');
      // the GLB is a derived cache, like a scene: not counted in the user's storage
      expect((await t.usage(superUser.id)).used).toBe(before.used);
      // asked again: converted already, nothing started, the viewer opens
      const again = await convert(superUser.token, [stl.id]);
      expect(again.bizData.allDone).toBe(true);
      expect(again.bizData.list[0].glbUrl).toMatch(/download\/object/);
      expect(await t.db.db.selectFrom('model3d_conversions').select('id').where('source_id', '=', stl.id).execute()).toHaveLength(1);
      // the same bytes uploaded again reuse the stored GLB (keyed per md5)
      const copy = (await t.upload(superUser.token, 'copy of cube.stl', Buffer.from(asciiStl()))).bizData;
      expect((await convert(superUser.token, [copy.id])).rtnCode).toBe('0000000');
      expect((await settled(superUser.token, copy.id)).stats.triangles).toBe(12);
      expect(await t.deps.storage.exists(glbKey(stl.fileMD5))).toBe(true);
      // four conversions, each in a worker thread of its own: ~31 s at a load average of 26 on these shared machines
    }, 120_000);

    it('the GLB link stops when the file changes or is deleted', async () => {
      const f = (await t.upload(superUser.token, 'gone.stl', Buffer.from(asciiStl('gone')))).bizData;
      await convert(superUser.token, [f.id]);
      const s = await settled(superUser.token, f.id);
      expect((await t.fetchSigned(s.glbUrl, superUser.token)).status).toBe(200);
      expect((await t.call('/cloud/v5/union/delete', { fileIds: [f.id], folderIds: [] }, superUser.token)).rtnCode).toBe('0000000');
      const after = await t.fetchSigned(s.glbUrl, superUser.token);
      expect(after.body.subarray(0, 4).toString()).not.toBe('glTF');
      expect(JSON.parse(after.body.toString()).bizData.code).toBe('download.linkExpired');
      // deleted for good: the GLB goes with the bytes
      expect(await t.deps.storage.exists(glbKey(f.fileMD5))).toBe(true);
      await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [f.id], folderIds: [] }, superUser.token);
      await until(async () => !(await t.deps.storage.exists(glbKey(f.fileMD5))) || undefined, 10_000);
    });

    it('bad input ends in the spec\'s message: a 0-byte file, a truncated STEP; a Revit file is refused with the IFC advice', async () => {
      const empty = await placeDirectly(t, superUser.id, '0', 'empty.stl', Buffer.alloc(0));
      const cut = (await t.upload(superUser.token, 'cut.step', Buffer.from(STEP_CUBE.slice(0, Math.floor(STEP_CUBE.length / 2))))).bizData;
      const started = await convert(superUser.token, [empty.id, cut.id]);
      expect(started.rtnCode, JSON.stringify(started)).toBe('0000000');
      expect(await settled(superUser.token, empty.id)).toMatchObject({ transformStatus: 2, code: 'model3d.empty', msg: 'The file is empty and cannot be converted', glbUrl: null });
      expect(await settled(superUser.token, cut.id)).toMatchObject({ transformStatus: 2, code: 'model3d.openFailed', msg: '3D model conversion failed and cannot be opened, please contact customer service' });
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: cut.id }, superUser.token)).bizData.transformStatus).toBe(2);
      const rvt = (await t.upload(superUser.token, 'house.rvt', Buffer.from('not really revit'))).bizData;
      const r = await convert(superUser.token, [rvt.id]);
      expect(r.bizData.code).toBe('model3d.revit');
      expect(r.msg).toMatch(/export it to IFC from Revit/);
      const zh = await t.call(`${P}transformBatch3D`, { fileIds: [rvt.id] }, superUser.token, 'zh');
      expect(zh.msg).toMatch(/IFC/);
      const txt = (await t.upload(superUser.token, 'notes.txt', Buffer.from('hello'))).bizData;
      expect((await convert(superUser.token, [txt.id])).bizData.code).toBe('model3d.notModel');
      // over the operator's cap (MODEL3D_MAX_TRIANGLES 50 000 here): refused with both numbers, not run out of memory
      const big = (await t.upload(superUser.token, 'big.glb', Buffer.from(await spheresGlb(16, 40)))).bizData;
      expect((await convert(superUser.token, [big.id])).rtnCode).toBe('0000000');
      const refused = await settled(superUser.token, big.id);
      expect(refused).toMatchObject({ transformStatus: 2, code: 'model3d.tooManyTriangles', msg: 'This model is too large to convert (at least 99,840 triangles; the limit is 50,000)', glbUrl: null, lodUrl: null });
      expect((await t.call(`${P}checkTaskStatus3D`, { fileId: big.id }, superUser.token, 'de')).bizData.msg).toBe('Dieses Modell ist zu groß für die Konvertierung (mindestens 99.840 Dreiecke; die Grenze ist 50.000)');
      expect((await t.call(`${P}checkTaskStatus3D`, { fileId: big.id }, superUser.token, 'zh')).bizData.msg).toMatch(/99,840.*50,000/);
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: big.id }, superUser.token)).bizData.transformStatus).toBe(2);
      // the source is untouched: the same bytes as uploaded
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: big.id }, superUser.token)).bizData.fileMD5).toBe(big.fileMD5);
      expect(await t.deps.storage.exists(glbKey(big.fileMD5))).toBe(false);
      // the server keeps serving
      expect((await t.call('/cloud/v5/union/list', { parentId: '0' }, superUser.token)).rtnCode).toBe('0000000');
    });

    it('a model above MODEL3D_LOD_ABOVE_TRIANGLES also gets a coarse level: its lodUrl is checked like the GLB\'s, and goes with it', async () => {
      const f = (await t.upload(superUser.token, 'spheres.glb', Buffer.from(await spheresGlb(4, 40)))).bizData;
      expect((await convert(superUser.token, [f.id])).rtnCode).toBe('0000000');
      const s = await settled(superUser.token, f.id);
      expect(s).toMatchObject({ transformStatus: 1, stats: { triangles: 4 * sphereTriangles(40) } });
      expect(s.lodUrl).toMatch(/download\/object/);
      const full = await readGlb((await t.fetchSigned(s.glbUrl, superUser.token)).body);
      const lod = await t.fetchSigned(s.lodUrl, superUser.token);
      expect(lod.status).toBe(200);
      const coarse = await readGlb(lod.body);
      expect(coarse.triangles).toBe(s.stats.lod.triangles);
      expect(coarse.triangles).toBeLessThan(full.triangles / 4);
      expect(coarse.names).toEqual(full.names);
      // a byte range of it (the viewer's streaming reads either file as it comes)
      const part = await t.app.inject({ method: 'GET', url: new URL(s.lodUrl).pathname + new URL(s.lodUrl).search, headers: { range: 'bytes=0-3' } });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.toString()).toBe('glTF');
      // a small model has none
      const small = (await t.upload(superUser.token, 'small.stl', Buffer.from(asciiStl('small')))).bizData;
      await convert(superUser.token, [small.id]);
      expect(await settled(superUser.token, small.id)).toMatchObject({ transformStatus: 1, lodUrl: null });
      // another user gets no link (their status call does not know the file), and cannot make one: the grant is signed
      const other = await t.createUser();
      expect((await t.call(`${P}checkTaskStatus3D`, { fileId: f.id }, other.token)).bizData.code).toBe('item.notFound');
      const [body] = new URL(s.glbUrl).searchParams.get('g')!.split('.');
      const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), l: 1 })).toString('base64url');
      const glbMac = new URL(s.glbUrl).searchParams.get('g')!.split('.')[1];
      expect((await t.fetchSigned(`/cloud/v5/download/object?g=${forged}.${glbMac}`, other.token)).status).toBe(403);
      // the file deleted: the coarse level's link stops with the GLB's; deleted for good, both go with the bytes
      expect((await t.call('/cloud/v5/union/delete', { fileIds: [f.id], folderIds: [] }, superUser.token)).rtnCode).toBe('0000000');
      const after = await t.fetchSigned(s.lodUrl, superUser.token);
      expect(after.status).toBe(403);
      expect(JSON.parse(after.body.toString()).bizData.code).toBe('download.linkExpired');
      expect(await t.deps.storage.exists(lodKey(f.fileMD5))).toBe(true);
      await t.call('/cloud/v5/union/delete', { deleteLevel: 1, fileIds: [f.id], folderIds: [] }, superUser.token);
      await until(async () => (!(await t.deps.storage.exists(lodKey(f.fileMD5))) && !(await t.deps.storage.exists(glbKey(f.fileMD5)))) || undefined, 10_000);
    });

    it('a free user gets FREE_3D_TRIALS conversions, then the message; a failed conversion spends none', async () => {
      const u = await t.createUser();
      expect(await remaining(u.token)).toEqual({ remaining: 2, superMember: false });
      const empty = (await t.upload(u.token, 'cut.stp', Buffer.from(STEP_CUBE.slice(0, 900)))).bizData;
      expect((await convert(u.token, [empty.id])).rtnCode).toBe('0000000');
      expect((await settled(u.token, empty.id)).transformStatus).toBe(2);
      expect((await remaining(u.token)).remaining).toBe(2);
      const a = (await t.upload(u.token, 'a.stl', Buffer.from(asciiStl('a')))).bizData;
      const b = (await t.upload(u.token, 'b.obj', Buffer.from(obj(undefined, '# b')))).bizData;
      const c = (await t.upload(u.token, 'c.step', Buffer.from(STEP_CUBE))).bizData;
      expect((await convert(u.token, [a.id, b.id])).rtnCode).toBe('0000000');
      expect((await remaining(u.token)).remaining).toBe(0);
      const refused = await convert(u.token, [c.id]);
      expect(refused.bizData.code).toBe('model3d.trialsUsed');
      expect(refused.msg).toBe('Your free 3D conversion trials are used up; upgrade to super membership to convert more');
      expect((await status(u.token, c.id)).transformStatus).toBe(3);
      expect((await settled(u.token, a.id)).transformStatus).toBe(1);
      // a super membership (admin CLI `user vip --type 2`) lifts the limit
      await t.db.db.updateTable('users').set({ vip_type: VipType.SUPER }).where('id', '=', u.id).execute();
      expect((await convert(u.token, [c.id])).rtnCode).toBe('0000000');
      expect((await settled(u.token, c.id)).transformStatus).toBe(1);
    });

    it('two transformBatch3D of one file at once start one job; the other is told a 3D model is converting', async () => {
      const f = (await t.upload(superUser.token, 'race.stl', Buffer.from(asciiStl('race')))).bizData;
      const [x, y] = await Promise.all([convert(superUser.token, [f.id]), convert(superUser.token, [f.id])]);
      const codes = [x, y].map((r) => (r.rtnCode === '0000000' ? 'ok' : r.bizData.code)).sort();
      expect(codes).toEqual(['model3d.converting', 'ok']);
      expect([x, y].find((r) => r.rtnCode !== '0000000')!.msg).toBe('There are 3D models being converting, please select again');
      expect(await t.db.db.selectFrom('model3d_conversions').select('id').where('source_id', '=', f.id).execute()).toHaveLength(1);
      expect((await settled(superUser.token, f.id)).transformStatus).toBe(1);
    });

    it('a job handed out again after a kill converts (resume); one killed on its last attempt ends failed, cleanly', async () => {
      const service = createModel3dService(t.deps);
      const insert = async (id: string, f: { id: string; name: string; fileMD5: string }) => {
        const now = Date.now();
        await t.db.db.insertInto('model3d_conversions').values({ id, uid: superUser.id, source_id: f.id, source_name: f.name, source_md5: f.fileMD5, state: 0, progress: 10, stage: 'mesh', trial: 0, stats: null, error: null, detail: null, created_at: now, updated_at: now, finished_at: null }).execute();
        await t.db.db.updateTable('items').set({ transform_status: 0 }).where('id', '=', f.id).execute();
      };
      const resumed = (await t.upload(superUser.token, 'resumed.obj', Buffer.from(obj(undefined, '# resumed')))).bizData;
      await insert('resumed1', resumed);
      await service.run('resumed1', { attempt: 2, progress: async () => undefined });
      expect(await status(superUser.token, resumed.id)).toMatchObject({ transformStatus: 1, stats: { triangles: 12 } });
      const killed = (await t.upload(superUser.token, 'killed.obj', Buffer.from(obj(undefined, '# killed')))).bizData;
      await insert('killed1', killed);
      await service.run('killed1', { attempt: 3, progress: async () => undefined });
      expect(await status(superUser.token, killed.id)).toMatchObject({ transformStatus: 2, code: 'model3d.failed', msg: 'Failed to convert the 3D model.' });
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: killed.id }, superUser.token)).bizData.transformStatus).toBe(2);
    });

    it('the 3D list (/yun/threeModel) shows the spec\'s 3D types and every format the converter reads', async () => {
      for (const exts of Object.values(MODEL3D_FORMATS)) for (const e of exts) expect(TYPE_GROUPS.threeD).toContain(e);
      const u = await t.createUser();
      for (const name of ['a.rvt', 'b.3mf', 'c.ply', 'd.brep', 'e.off', 'f.dwg', 'g.png', 'h.pdf', 'i.zip', 'j.xyz', 'k.SLDPRT', 'README']) await t.upload(u.token, name, Buffer.from(`x ${name}`));
      const names = async (o: object) => (await t.call('/cloud/v5/file/listTypeFiles', o, u.token)).bizData.list.map((i: any) => i.name).sort();
      // the spec's 3D list and the converter's formats, and the types no group knows (spec section 5: they count as 3D-viewable)
      const threeD = ['a.rvt', 'b.3mf', 'c.ply', 'd.brep', 'e.off', 'j.xyz', 'k.SLDPRT'];
      expect(await names({ includeTypes: ['threeD'] })).toEqual(threeD);
      expect(await names({ includeTypes: '3d' })).toEqual(threeD);
      const listed = await t.call('/cloud/v5/file/listTypeFiles', { includeTypes: ['threeD'] }, u.token);
      expect(listed.bizData.total).toBe(threeD.length);
      // the other list (/yun/other: neither drawings, 3D nor pictures) keeps documents, archives and files without a type
      expect(await names({ excludeTypes: ['drawing', 'threeD', 'image'] })).toEqual(['README', 'h.pdf', 'i.zip']);
      expect(await names({ includeTypes: ['document'] })).toEqual(['h.pdf']);
    });

    it('documents the four 3D calls in the OpenAPI document', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      for (const p of ['transformBatch3D', 'checkTransformSuplus3D', 'checkTaskStatus3D', 'checkTaskStatusBatch3D']) expect(Object.keys(doc.paths)).toContain(`${P}${p}`);
    });
  });

  // issue 21: a drawing's 3D solids, when the user asks for a 3D conversion (the operator's default triangle cap)
  describe(`DWG/DXF solids through the 3D endpoints on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver, { FREE_3D_TRIALS: '5' });
      registerModel3dJobs(t.deps.queue, t.deps);
    });
    afterAll(async () => t?.close());

    // two conversions in worker threads that load the drawing engine: a loaded machine takes longer than the default 30 s
    it('a DXF with a 3DSOLID box and cylinder converts to a GLB of their bounds, one node each; its 2D thumbnail is left to the drawing', { timeout: 120_000 }, async () => {
      const u = await t.createUser();
      const other = await t.createUser();
      const f = (await t.upload(u.token, 'solids.dxf', Buffer.from(solidsDxf()))).bizData;
      const before = (await t.call('/cloud/v5/file/getFileInfo', { fileId: f.id }, u.token)).bizData.thumbkey;
      // nobody converts or sees another user's drawing
      expect((await t.call(`${P}transformBatch3D`, { fileIds: [f.id], isTransForm: true }, other.token)).rtnCode).not.toBe('0000000');
      const r = await t.call(`${P}transformBatch3D`, { fileIds: [f.id], isTransForm: true }, u.token);
      expect(r.rtnCode, JSON.stringify(r)).toBe('0000000');
      const s = await until(async () => {
        const x = (await t.call(`${P}checkTaskStatus3D`, { fileId: f.id }, u.token)).bizData;
        return x.transformStatus !== 0 ? x : undefined;
      }, 120_000);
      expect(s).toMatchObject({ transformStatus: 1, code: null });
      expect((await t.call(`${P}checkTaskStatus3D`, { fileId: f.id }, other.token)).rtnCode).not.toBe('0000000');
      const back = await readGlb((await t.fetchSigned(s.glbUrl, u.token)).body);
      expect(back.triangles).toBe(s.stats.triangles);
      expect(back.triangles).toBeGreaterThan(12 + 100);
      near(back.min, SOLIDS_BBOX.min);
      near(back.max, SOLIDS_BBOX.max);
      expect(back.names).toEqual(['solids', '3DSOLID A1', '3DSOLID A2']);
      expect((await t.call('/cloud/v5/file/getFileInfo', { fileId: f.id }, u.token)).bizData.thumbkey).toBe(before);
      // a drawing without solids ends with the conversion's failure message, and spends no trial
      const flat = (await t.upload(u.token, 'flat.dxf', Buffer.from(writeAsciiDxf({ entities: [{ type: 'LINE', pairs: [[8, '0'], [10, 0], [20, 0], [11, 1], [21, 1]] }] })))).bizData;
      expect((await t.call(`${P}transformBatch3D`, { fileIds: [flat.id], isTransForm: true }, u.token)).rtnCode).toBe('0000000');
      expect(await until(async () => {
        const x = (await t.call(`${P}checkTaskStatus3D`, { fileId: flat.id }, u.token)).bizData;
        return x.transformStatus !== 0 ? x : undefined;
      }, 120_000)).toMatchObject({ transformStatus: 2, code: 'model3d.openFailed' });
    });
  });
}
