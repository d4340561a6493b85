import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { testDatabaseDrivers } from '../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../test/fixtures.ts';
import { makeZip } from './unzip/test-archives.ts';
import { deriveSaltKeys, openResponse, randomSalt, sealRequest, SIGNED_HEADERS, SIGNED_REQUEST_ID } from '@cadcloud/contracts/signed-call';
import { COMPANY_PATHS, INVOICE_PATHS, OPERATOR_PATHS } from '@cadcloud/contracts';
import { createExchangeCodesService } from './exchange-codes/exchange-codes.service.ts';

/**
 * For every endpoint that names an item, a task or an upload: user B's token on user A's ids gets an error,
 * and A's data is exactly as before.
 */
for (const driver of testDatabaseDrivers()) {
  describe(`authorization on ${driver.name}`, () => {
    let t: TestApp;
    let a: { id: string; token: string };
    let b: { id: string; token: string };
    let ids: { folder: string; file: string; trashed: string; task: string; upload: string; conversion: string; archive: string; unzipTask: string; model: string; revit: string; order: string };

    async function snapshot() {
      const items = await t.db.db.selectFrom('items').selectAll().where('uid', '=', a.id).orderBy('id').execute();
      const tasks = await t.db.db.selectFrom('zip_tasks').select(['id', 'status', 'uid']).where('uid', '=', a.id).orderBy('id').execute();
      const uploads = await t.db.db.selectFrom('upload_sessions').select(['id', 'received']).where('uid', '=', a.id).execute();
      const user = await t.db.db.selectFrom('users').select(['storage_used']).where('id', '=', a.id).executeTakeFirst();
      const conversions = await t.db.db.selectFrom('conversions').selectAll().orderBy('id').execute();
      const model3d = await t.db.db.selectFrom('model3d_conversions').selectAll().orderBy('id').execute();
      const orders = await t.db.db.selectFrom('orders').selectAll().where('uid', '=', a.id).orderBy('id').execute();
      const payments = await t.db.db.selectFrom('sandbox_payments').selectAll().orderBy('order_id').execute();
      const feedback = await t.db.db.selectFrom('feedback').selectAll().where('uid', '=', a.id).orderBy('id').execute();
      return JSON.stringify({ items, tasks, uploads, user, conversions, model3d, orders, payments, feedback });
    }

    beforeAll(async () => {
      t = await createTestApp(driver);
      a = await t.createUser();
      b = await t.createUser();
      const folder = (await t.call('/cloud/v5/folder/edit', { name: 'A-private' }, a.token)).bizData.id;
      const file = (await t.upload(a.token, 'a.dwg', randomBytes(100), { parentId: folder })).bizData.id;
      const trashed = (await t.upload(a.token, 'gone.dwg', randomBytes(100))).bizData.id;
      await t.call('/cloud/v5/union/delete', { fileIds: [trashed] }, a.token);
      const task = (await t.call('/cloud/v5/file/downloadBatchZip', { fileIds: [file] }, a.token)).bizData.taskId;
      // let the zip finish so the background job does not change A's data during the checks
      for (let i = 0; i < 200 && (await t.call('/cloud/v5/zip/task/taskStatus', { taskId: task }, a.token)).bizData.status < 2; i++) await new Promise((r) => setTimeout(r, 50));
      const upload = (await t.call('/cloud/v5/upload/init', { name: 'big.dwg', size: 100, md5: 'a'.repeat(32) }, a.token)).bizData.uploadId;
      // a failed conversion of A's file (modules/conversions): its task id is A's too
      const now = Date.now();
      await t.db.db.insertInto('conversions').values({ id: 'conv-of-a', uid: a.id, source_id: file, source_name: 'a.dwg', source_md5: 'c'.repeat(32), target: 'pdf', version: null, options: '{}', state: 2, progress: 5, stage: 'failed', result_id: null, error: 'conversion.failed', detail: null, created_at: now, updated_at: now, finished_at: now }).execute();
      // an archive of A's and its decompression waiting for a password (modules/unzip)
      const archive = (await t.upload(a.token, 'a.zip', Buffer.from(await makeZip([{ name: 'x.dwg', data: new Uint8Array(randomBytes(10)) }], { password: 'pw' })), { parentId: folder })).bizData.id;
      await t.db.db.insertInto('zip_tasks').values({ id: 'unzip-of-a', uid: a.id, task_type: 2, status: 6, request_key: `unzip:${archive}`, name: 'a.zip', progress: 0, result_key: null, result_size: null, error: 'unzip.passwordRequired', created_at: now, updated_at: now, archive_id: archive, format: 'zip' }).execute();
      // a 3D model of A's, converted (modules/model3d): neither converted, reported nor linked for B
      const model = (await t.upload(a.token, 'a.stl', Buffer.from('solid a\nendsolid a\n'), { parentId: folder })).bizData;
      await t.db.db.insertInto('model3d_conversions').values({ id: 'm3d-of-a', uid: a.id, source_id: model.id, source_name: 'a.stl', source_md5: model.fileMD5, state: 1, progress: 100, stage: 'done', trial: 0, stats: '{"triangles":0}', error: null, detail: null, created_at: now, updated_at: now, finished_at: now }).execute();
      const revit = (await t.upload(a.token, 'a.rvt', Buffer.from('an rvt of A'), { parentId: folder })).bizData;
      // an exchange code A redeemed (modules/exchange-codes): B's list of redeemed codes stays empty
      const { codes: [code] } = await createExchangeCodesService(t.deps).createBatch({ planCode: 'SE10', count: 1 });
      expect((await t.call('/order/v5/exchange', { code }, a.token)).rtnCode).toBe('0000000');
      // an unpaid order of A's (modules/orders): neither shown, cancelled nor polled for B
      const order = (await t.call('/order/v5/create', { planCode: 'ML1', payWay: 2, clientType: 11 }, a.token)).bizData.order.orderId;
      ids = { folder, file, trashed, task, upload, conversion: 'conv-of-a', archive, unzipTask: 'unzip-of-a', model: model.id, revit: revit.id, order };
    });
    afterAll(async () => t?.close());

    /** [path, data, the error B gets (item.notFound unless said)] */
    const cases: [string, () => unknown, string?][] = [
      ['/cloud/v5/union/list', () => ({ parentId: ids.folder })],
      ['/cloud/v5/file/list', () => ({ folderId: ids.folder })],
      ['/cloud/v5/file/getFileInfo', () => ({ fileId: ids.file })],
      ['/cloud/v5/file/edit', () => ({ fileId: ids.file, name: 'stolen.dwg' })],
      ['/cloud/v5/folder/edit', () => ({ folderId: ids.folder, name: 'stolen' })],
      ['/cloud/v5/folder/edit', () => ({ parentId: ids.folder, name: 'intruder' })],
      ['/cloud/v5/folder/list', () => ({ parentId: ids.folder })],
      ['/cloud/v5/folder/getParentFolderPath', () => ({ folderId: ids.folder })],
      ['/cloud/v5/folder/detectUpload', () => ({ parentId: ids.folder, name: 'x' })],
      ['/cloud/v5/union/move', () => ({ fileIds: [ids.file], moveToId: '0' })],
      ['/cloud/v5/union/delete', () => ({ deleteLevel: 0, fileIds: [ids.file], folderIds: [ids.folder] })],
      ['/cloud/v5/union/delete', () => ({ deleteLevel: 1, fileIds: [ids.trashed] })],
      ['/cloud/v5/trash/restore', () => ({ fileIds: [ids.trashed] })],
      ['/cloud/v5/file/download', () => ({ fileId: ids.file })],
      ['/cloud/v5/file/downloadBatchZip', () => ({ fileIds: [ids.file] })],
      ['/cloud/v5/file/downloadBatchTempUrl', () => ({ taskId: ids.task })],
      ['/cloud/v5/zip/task/taskStatus', () => ({ taskId: ids.task })],
      ['/cloud/v5/zip/task/cancel', () => ({ taskId: ids.task })],
      ['/cloud/v5/upload/complete', () => ({ uploadId: ids.upload })],
      ['/cloud/v5/file/detectUpload', () => ({ md5: 'a'.repeat(32), size: 100, name: 'x.dwg', parentId: ids.folder })],
      ['/cloud/v5/upload/init', () => ({ md5: 'b'.repeat(32), size: 100, name: 'x.dwg', parentId: ids.folder })],
      // public library (modules/library): someone else's private drawing can be neither published nor seen
      ['/cloud/v5/file/setFilePrivateType', () => ({ fileIds: [ids.file], privateType: '0' })],
      ['/cloud/v5/public/detail', () => ({ fileId: ids.file })],
      ['/cloud/v5/public/like', () => ({ fileId: ids.file, like: true })],
      ['/cloud/v5/public/collect', () => ({ fileId: ids.file, collect: true })],
      ['/cloud/v5/public/message/add', () => ({ fileId: ids.file, content: 'hi' })],
      ['/cloud/v5/public/message/list', () => ({ fileId: ids.file })],
      // conversions (modules/conversions): nothing of A's is converted, reported or retried for B
      ['/cloud/v5/file/task/transformBatch', () => ({ fileIds: [ids.file], target: 'pdf' })],
      ['/cloud/v5/file/task/checkTaskStatusBatch', () => ({ fileIds: [ids.file] })],
      ['/cloud/v5/file/task/transformRetry', () => ({ taskId: ids.conversion })],
      // 3D models (modules/model3d): A's model is neither converted nor its status or GLB link told to B
      ['/cloud/v5/file/task/transformBatch3D', () => ({ fileIds: [ids.model], isTransForm: true })],
      ['/cloud/v5/file/task/checkTaskStatus3D', () => ({ fileId: ids.model })],
      ['/cloud/v5/file/task/checkTaskStatusBatch3D', () => ({ fileIds: [ids.model] })],
      ['/cloud/v5/file/task/revitInfo3D', () => ({ fileId: ids.revit })],
      // decompression (modules/unzip): A's archive is neither checked, decompressed, password-tested nor its task seen
      ['/cloud/v5/file/detectUnzip', () => ({ fileId: ids.archive })],
      ['/cloud/v5/file/unzip', () => ({ fileId: ids.archive })],
      ['/cloud/v5/file/unzip', () => ({ fileId: ids.archive, password: 'pw', mode: 'new' })],
      ['/cloud/v5/file/unzipHasPassword', () => ({ fileId: ids.archive, password: 'pw' })],
      ['/cloud/v5/zip/task/taskStatus', () => ({ taskId: ids.unzipTask })],
      ['/cloud/v5/zip/task/cancel', () => ({ taskId: ids.unzipTask })],
      // orders (modules/orders): another user's order is as unknown as one that does not exist
      ['/order/v5/detail', () => ({ orderId: ids.order }), 'order.notFound'],
      ['/order/v5/cancel', () => ({ orderId: ids.order }), 'order.notFound'],
      ['/order/v5/status', () => ({ orderId: ids.order }), 'order.notFound'],
    ];

    for (const [n, [path, data, code]] of cases.entries()) {
      it(`#${n} ${path}: B gets an error, A's data unchanged`, async () => {
        const before = await snapshot();
        const r = await t.call(path, data(), b.token);
        expect(r.rtnCode).not.toBe('0000000');
        expect(r.bizData.code).toBe(code ?? 'item.notFound');
        expect(await snapshot()).toBe(before);
      });
    }

    it('lists never show another user\'s items', async () => {
      for (const [path, data] of [['/cloud/v5/union/list', {}], ['/cloud/v5/union/list', { q: 'a', isGlobal: true }], ['/cloud/v5/file/listTypeFiles', {}], ['/cloud/v5/trash/file/list', {}], ['/cloud/v5/trash/folder/list', {}], ['/cloud/v5/zip/task/list', {}], ['/cloud/v5/zip/task/list', { taskType: 2 }], ['/cloud/v5/public/list', {}], ['/cloud/v5/file/queryMyPublicList', {}], ['/cloud/v5/file/queryMyLikePublicList', {}], ['/cloud/v5/file/queryMyCollectionrecordList', {}], ['/cloud/v5/file/task/transformList', {}], ['/cloud/v5/file/task/list3D', {}], ['/order/v5/exchange/list', {}]] as const) {
        const r = await t.call(path, data, b.token);
        expect(r.rtnCode, path).toBe('0000000');
        expect(r.bizData.list, path).toEqual([]);
      }
      expect((await t.call('/order/v5/list', {}, b.token)).bizData).toEqual({ total: 0, orders: [] });
    });

    it('B cannot push chunks into A\'s upload', async () => {
      const before = await snapshot();
      const r = await t.app.inject({ method: 'PUT', url: `/cloud/v5/upload/chunk?utoken=${b.token}&uploadId=${ids.upload}&offset=0`, headers: { 'content-type': 'application/octet-stream' }, payload: randomBytes(10) });
      expect(r.json().bizData.code).toBe('item.notFound');
      expect(await snapshot()).toBe(before);
    });

    it('B cannot open A\'s drawing in the viewer, nor see whether it exists', async () => {
      const before = await snapshot();
      for (const fileId of [ids.file, ids.trashed, 'no-such-file']) {
        const r = await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${fileId}&utoken=${b.token}` });
        expect(r.headers['content-type'], fileId).toMatch(/json/);
        expect(r.json().bizData.code, fileId).toBe('drawing.noPermission');
      }
      expect((await t.app.inject({ method: 'GET', url: `/cloud/v5/drawing/scene?fileId=${ids.file}` })).json().rtnCode).toBe('101');
      expect(await snapshot()).toBe(before);
    });

    it('feedback (modules/feedback): B\'s message is recorded as B\'s whatever it names; a visitor\'s under no account', async () => {
      await t.call('/cloud/v5/advice/add', { email: 'a@example.com', content: 'from A' }, a.token);
      const before = await snapshot();
      const r = await t.call('/cloud/v5/advice/add', { email: 'a@example.com', content: 'B pretends to be A', uid: a.id } as unknown, b.token);
      expect(r.rtnCode).toBe('0000000');
      expect(await snapshot()).toBe(before);
      expect((await t.db.db.selectFrom('feedback').select('uid').where('id', '=', r.bizData.id).executeTakeFirstOrThrow()).uid).toBe(b.id);
      const visitor = await t.call('/cloud/v5/advice/add', { email: 'v@example.com', content: 'as a visitor' });
      expect((await t.db.db.selectFrom('feedback').select('uid').where('id', '=', visitor.bizData.id).executeTakeFirstOrThrow()).uid).toBeNull();
      // a forged token signs in as nobody: stored like a visitor's, under no account
      const forged = await t.call('/cloud/v5/advice/add', { email: 'v@example.com', content: 'forged' }, 'forged-token');
      expect((await t.db.db.selectFrom('feedback').select('uid').where('id', '=', forged.bizData.id).executeTakeFirstOrThrow()).uid).toBeNull();
    });

    it('every endpoint refuses an unsigned request with 101', async () => {
      for (const [path] of cases) expect((await t.call(path, {}, undefined)).rtnCode, path).toBe('101');
      expect((await t.call('/user/v5/sysuser/userInfo', {})).rtnCode).toBe('101');
      expect((await t.call('/cloud/v5/folder/capacity', {})).rtnCode).toBe('101');
      // issue 22 parts 4–5: exchange codes, freeze state and the free unfreeze are the signed-in user's own
      for (const path of ['/order/v5/exchange', '/order/v5/exchange/list', '/user/v5/sysuser/freezeState', '/user/v5/sysuser/freeUnfreeze']) expect((await t.call(path, { code: 'AAAA-BBBB-CCCC-DDDD', email: 'x@example.com' })).rtnCode, path).toBe('101');
      expect((await t.call('/cloud/v5/union/list', {}, 'forged-token')).rtnCode).toBe('101');
      // call styles (issue 23): the session secret, the customer and company of the session
      for (const path of ['/global/v5/common/getRsaKey', '/user/v5/customer/getInfo', '/company/v5/member/getCompanyInfoByToken', '/user/v5/sysuser/assistantToken']) expect((await t.call(path, {}, undefined)).rtnCode, path).toBe('101');
      // companies and invoices (issue 23): every call is the signed-in user's own; another company's invoice and title are
      // not found for b (invoices.test.ts: the company cases with two companies)
      for (const path of [...Object.values(INVOICE_PATHS), ...Object.values(COMPANY_PATHS)]) expect((await t.call(path, { invoiceId: 'x', titleId: 'x', orderIds: ['x'], name: 'N', email: 'x@example.com', token: 'x', memberId: 'x', mayInvoice: true }, undefined)).rtnCode, path).toBe('101');
      for (const path of [INVOICE_PATHS.detail, INVOICE_PATHS.download, INVOICE_PATHS.reCreate]) expect((await t.call(path, { invoiceId: 'not-mine' }, b.token)).rtnCode, path).not.toBe('0000000');
      // the operator page's calls (modules/operator): 101 unsigned, operator.forbidden for a signed-in non-operator
      for (const path of Object.values(OPERATOR_PATHS)) {
        expect((await t.call(path, {}, undefined)).rtnCode, path).toBe('101');
        expect((await t.call(path, { invoiceId: 'x', id: 'x', reason: 'r', text: 't', pageNo: 1, pageSize: 1 }, b.token)).bizData.code, path).toBe('operator.forbidden');
      }
      // the signed twins answer the signed API's "log out" code without a session
      for (const path of ['/secure/cloud/v5/font/list', '/secure/cloud/v5/font/rename', '/secure/cloud/v5/font/download']) expect((await t.app.inject({ method: 'POST', url: path, payload: { sign: 'x', key: 'y' } })).json().rtnCode, path).toBe('1000005');
    });

    it("B's signed (call style 3) font calls on A's font get an error, A's font unchanged", async () => {
      const boundary = '----authz-font';
      const font = Buffer.concat([Buffer.from('0001000000010010000300000000', 'hex'), Buffer.from('head'), Buffer.alloc(12), randomBytes(8)]);
      const payload = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="a-font.ttf"\r\nContent-Type: application/octet-stream\r\n\r\n`), font, Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const up = await t.app.inject({ method: 'POST', url: `/cloud/v5/font/upload?utoken=${a.token}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
      const fontId = up.json().bizData.id as string;
      expect(fontId).toBeTruthy();
      const before = JSON.stringify(await t.db.db.selectFrom('fonts').selectAll().where('id', '=', fontId).execute());
      const secretB = (await t.call('/global/v5/common/getRsaKey', {}, b.token)).bizData.aesSecretKey as string;
      for (const [path, data] of [['/cloud/v5/font/rename', { id: fontId, name: 'stolen.ttf' }], ['/cloud/v5/font/edit', { id: fontId, name: 'stolen.ttf', codepage: 1, bold: false, italic: false }], ['/cloud/v5/font/public', { id: fontId, ispublic: 1 }], ['/cloud/v5/font/download', { id: fontId }]] as const) {
        const salt = randomSalt();
        const date = String(Date.now());
        const keys = await deriveSaltKeys(secretB, salt);
        const r = await t.app.inject({ method: 'POST', url: `/secure${path}?utoken=${b.token}`, headers: { [SIGNED_HEADERS.date]: date, [SIGNED_HEADERS.salt]: salt, [SIGNED_HEADERS.requestId]: SIGNED_REQUEST_ID }, payload: await sealRequest(keys, date, salt, { data, clientInfo: { clientType: 'Web_PC' } }) });
        const answer = await openResponse<{ rtnCode: string; bizData: { code: string } }>(keys, date, salt, r.json());
        expect(answer.rtnCode, path).not.toBe('0000000');
        expect(answer.bizData.code, path).toBe('item.notFound');
      }
      expect(JSON.stringify(await t.db.db.selectFrom('fonts').selectAll().where('id', '=', fontId).execute())).toBe(before);
    });
  });
}
