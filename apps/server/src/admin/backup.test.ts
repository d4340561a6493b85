import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { writeAsciiDxf } from '../../../../packages/cad/src/testing/dxf-writer.ts';
import { testDatabaseDrivers, type TestDatabase } from '../infra/db/test-databases.ts';
import { createDatabase } from '../infra/db/db.ts';
import { loadConfig } from '../infra/config/index.ts';
import { createStorage } from '../infra/storage/storage.factory.ts';
import { createTestApp, md5, s3TestEnv, type Envelope, type TestApp } from '../test/fixtures.ts';
import { extractWithProof } from '../test/share-proof.ts';
import { repoRoot } from '../test/server-process.ts';
import { backupInstance, restoreInstance, type BackupManifest } from './backup.ts';
import { runAdmin } from './admin.cli.ts';

/**
 * Issue 16 item 6: `admin backup` of a populated instance while uploads go on, `admin restore` into a fresh data dir
 * and an empty database, the app started on the result answers as the original did.
 */
const dxf = (label: string) =>
  Buffer.from(writeAsciiDxf({ layers: ['0'], entities: [{ type: 'TEXT', pairs: [[8, '0'], [10, 5], [20, 80], [40, 5], [1, label]] }] }));
/** A minimal SHX shape font (see fonts.test.ts). */
function shx(): Buffer {
  const header = Buffer.from('AutoCAD-86 shapes 1.0\r\n\x1a', 'latin1');
  const def = Buffer.concat([Buffer.from('A\0', 'latin1'), Buffer.from([0x01, 0x08, 0x00])]);
  const table = Buffer.alloc(10);
  table.writeUInt16LE(65, 0);
  table.writeUInt16LE(65, 2);
  table.writeUInt16LE(1, 4);
  table.writeUInt16LE(65, 6);
  table.writeUInt16LE(def.length, 8);
  return Buffer.concat([header, table, def, randomBytes(4)]);
}

async function multipart(t: TestApp, url: string, token: string, fields: Record<string, string>, name: string, body: Buffer): Promise<Envelope> {
  const boundary = `----bk${Date.now()}${Math.random()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), body, Buffer.from(`\r\n--${boundary}--\r\n`));
  const r = await t.app.inject({ method: 'POST', url: `${url}?utoken=${encodeURIComponent(token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' }, payload: Buffer.concat(parts) });
  return r.json();
}

const pick = (list: Record<string, unknown>[], keys: string[]) => list.map((i) => Object.fromEntries(keys.map((k) => [k, i[k]])));
const ITEM_KEYS = ['id', 'name', 'size', 'type', 'parentId', 'fileType', 'md5'];

/** What a user sees, as comparable data: listings, trash, versions, fonts. */
async function view(t: TestApp, token: string, o: { folderId: string; versionedId: string }) {
  const root = (await t.call('/cloud/v5/union/list', { parentId: '0' }, token)).bizData.list;
  const folder = (await t.call('/cloud/v5/union/list', { parentId: o.folderId }, token)).bizData.list;
  const trash = (await t.call('/cloud/v5/trash/file/list', {}, token)).bizData.list;
  const versions = (await t.call('/cloud/v5/version/history', { fileId: o.versionedId }, token)).bizData.list;
  const fonts = (await t.call('/cloud/v5/font/list', {}, token)).bizData;
  return {
    root: pick(root, ITEM_KEYS),
    folder: pick(folder, ITEM_KEYS),
    trash: pick(trash, ['id', 'name', 'size']),
    versions: pick(versions, ['versionId', 'version', 'isLatest', 'sourceName', 'size', 'remarkType']),
    fonts: pick(fonts.list ?? fonts, ['id', 'name', 'size', 'type']),
  };
}

async function download(t: TestApp, token: string, fileId: string): Promise<Buffer> {
  const dl = await t.call('/cloud/v5/file/download', { fileId }, token);
  expect(dl.rtnCode).toBe('0000000');
  const got = await t.fetchSigned(dl.bizData.signedUrl);
  if (got.status === 302) {
    // S3: the download link sends the browser to a presigned URL of the storage server
    const r = await fetch(String(got.headers.location));
    expect(r.status).toBe(200);
    return Buffer.from(await r.arrayBuffer());
  }
  expect(got.status).toBe(200);
  return got.body;
}

for (const driver of testDatabaseDrivers()) {
  describe(`backup and restore (${driver.name})`, () => {
    let t: TestApp;
    let restored: TestApp | undefined;
    let fresh: TestDatabase | undefined;
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-backup-'));
    afterAll(async () => {
      await restored?.close();
      if (!restored) await fresh?.destroy();
      await t?.close();
      rmSync(tmp, { recursive: true, force: true });
    });
    beforeAll(async () => {
      t = await createTestApp(driver);
    });

    it('round-trips users, files, folders, versions, shares, fonts and trash while uploads run', async () => {
      const a = await t.createUser({ email: `alice-${driver.name}@example.com` });
      const b = await t.createUser();
      const busy = await t.createUser();
      const bytes = new Map<string, Buffer>();
      const up = async (token: string, name: string, body: Buffer, fields: Record<string, string> = {}) => {
        const r = await t.upload(token, name, body, fields);
        expect(r.rtnCode).toBe('0000000');
        bytes.set(r.bizData.id, body);
        return r.bizData.id as string;
      };
      const folderId = (await t.call('/cloud/v5/folder/edit', { parentId: '0', name: 'Plans' }, a.token)).bizData.id as string;
      const inner = await up(a.token, 'inner.dxf', dxf('inner'), { parentId: folderId });
      await up(a.token, 'notes.bin', randomBytes(5000), { parentId: folderId });
      const versionedId = await up(a.token, 'plan.dxf', dxf('V1'));
      await t.call('/cloud/v5/version/history', { fileId: versionedId }, a.token);
      const v2 = dxf('V2 with more text');
      expect((await multipart(t, '/cloud/v5/version/upload', a.token, { fileId: versionedId }, 'plan.dxf', v2)).rtnCode).toBe('0000000');
      bytes.set(versionedId, v2);
      const trashed = await up(a.token, 'old.dxf', dxf('old'));
      expect((await t.call('/cloud/v5/union/delete', { fileIds: [trashed] }, a.token)).rtnCode).toBe('0000000');
      expect((await multipart(t, '/cloud/v5/font/upload', a.token, {}, 'mine.shx', shx())).rtnCode).toBe('0000000');
      await up(b.token, 'b.bin', randomBytes(700));
      const share = (await t.call('/cloud/v5/share/create', { fileIds: [versionedId], folderIds: [folderId], validDays: 7 }, a.token)).bizData;
      expect(share.rand).toBeTruthy();

      const before = await view(t, a.token, { folderId, versionedId });
      expect(before.versions.length).toBe(2);
      expect(before.trash.length).toBe(1);
      expect(before.fonts.length).toBe(1);

      // uploads go on while the backup runs, on its own database connection (as the CLI's would be)
      let uploading = true;
      let finished = 0;
      const finishedIds = new Set<number>();
      const busyUploads: Promise<void>[] = [];
      const storm = (async () => {
        // four at a time, for as long as the backup runs
        for (let i = 0; uploading && i < 3000; i++) {
          const body = randomBytes(20_000 + i);
          busyUploads.push(t.upload(busy.token, `busy-${i}.bin`, body).then((r) => void (r.rtnCode === '0000000' && (finished++, finishedIds.add(i), bytes.set(r.bizData.id, body)))));
          while (busyUploads.length - finishedIds.size >= 4) await new Promise((r) => setTimeout(r, 2));
        }
      })();
      // some uploads are done before the snapshot, more run during it and after
      while (finished < 5) await new Promise((r) => setTimeout(r, 5));
      const dir = path.join(tmp, 'backup');
      const backupDb = createDatabase(t.db.url, { searchPath: t.db.searchPath, poolSize: 2 });
      let manifest: BackupManifest;
      try {
        // after the blob rows are read, uploads that start only then finish before the files are read: the snapshot
        // must not see their files (without one snapshot it would, and they would name blobs it lacks)
        const waitForUploads = async (table: string) => {
          if (table !== 'blobs') return;
          const first = busyUploads.length;
          while (![...finishedIds].some((i) => i >= first + 1)) await new Promise((r) => setTimeout(r, 5));
        };
        manifest = await backupInstance({ db: backupDb, storage: t.deps.storage, dataDir: t.dataDir, dir, afterTable: waitForUploads });
      } finally {
        await backupDb.destroy();
      }
      uploading = false;
      await storm;
      await Promise.all(busyUploads);

      // consistency: every blob row of the snapshot has its object, byte-exact; every file names a blob of the snapshot
      expect(manifest.objects.missing).toEqual([]);
      const rowsOf = (table: string) => readFileSync(path.join(dir, 'tables', `${table}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
      const blobs = rowsOf('blobs');
      expect(blobs.length).toBe(manifest.tables.blobs.rows);
      for (const row of blobs) expect(md5(readFileSync(path.join(dir, 'objects', row.storage_key)))).toBe(row.md5);
      const known = new Set(blobs.map((row) => row.md5));
      for (const item of rowsOf('items')) if (item.blob_md5) expect(known.has(item.blob_md5)).toBe(true);
      for (const v of rowsOf('file_versions')) expect(known.has(v.blob_md5)).toBe(true);
      for (const f of rowsOf('fonts')) expect(known.has(f.blob_md5)).toBe(true);
      expect(manifest).toMatchObject({ format: 'cadcloud-backup', dialect: driver.name, storageDriver: 'fs', objects: { mode: 'copied' } });
      expect(manifest.secrets.length).toBeGreaterThan(0);
      const busyInBackup = rowsOf('items').filter((i) => i.uid === busy.id);
      expect(busyInBackup.length).toBeGreaterThanOrEqual(5);
      expect(busyInBackup.length).toBeLessThan(finished);

      // restore into an empty database and a fresh data folder, start the app there
      fresh = await driver.create({ migrate: false });
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-restored-'));
      const storage = createStorage(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite::memory:', PORT: '8080' }));
      const done = await restoreInstance({ db: fresh.db, storage, dataDir, dir });
      expect(done.tables.items).toBe(manifest.tables.items.rows);
      expect(done.objects).toBe(manifest.objects.count);
      restored = await createTestApp(driver, {}, { db: fresh, dataDir });

      // the sessions came back too: the same tickets sign in, and the user sees what they saw
      expect(await view(restored, a.token, { folderId, versionedId })).toEqual(before);
      expect((await download(restored, a.token, versionedId)).equals(v2)).toBe(true);
      expect((await download(restored, a.token, inner)).equals(bytes.get(inner)!)).toBe(true);
      const restoredBusy = (await restored.call('/cloud/v5/union/list', { parentId: '0' }, busy.token)).bizData.list as { id: string }[];
      expect(restoredBusy.map((i) => i.id).sort()).toEqual(busyInBackup.map((i) => i.id).sort());
      for (const f of restoredBusy.slice(0, 5)) expect((await download(restored, busy.token, f.id)).equals(bytes.get(f.id)!)).toBe(true);
      // the share still opens with its code, and shows the shared items
      const x = await extractWithProof(restored, { rand: share.rand, code: share.code, password: share.password }, '10.9.8.7');
      expect(x.rtnCode).toBe('0000000');
      const shared = (await restored.call('/cloud/v5/share/files', { shareToken: x.bizData.shareToken })).bizData.list as { name: string }[];
      expect(shared.map((i) => i.name).sort()).toEqual(['Plans', 'plan.dxf']);
      // and the restored instance keeps working: a new upload, a new mail id, nothing collides
      expect((await restored.upload(b.token, 'after.bin', randomBytes(100))).rtnCode).toBe('0000000');
    }, 120_000);

    it('restore refuses a database that holds data unless --force, and a folder that is not a finished backup', async () => {
      const dir = path.join(tmp, 'backup');
      const storage = createStorage(loadConfig({ DATA_DIR: restored!.dataDir, DATABASE_URL: 'sqlite::memory:', PORT: '8080' }));
      await expect(restoreInstance({ db: restored!.db.db, storage, dataDir: restored!.dataDir, dir })).rejects.toThrow(/already holds data/);
      const half = path.join(tmp, 'half');
      await expect(restoreInstance({ db: restored!.db.db, storage, dataDir: restored!.dataDir, dir: half })).rejects.toThrow(/no manifest/);
      // a damaged table file is caught by its checksum before anything is written
      const broken = path.join(tmp, 'broken');
      spawnSync('cp', ['-r', dir, broken]);
      writeFileSync(path.join(broken, 'tables', 'users.jsonl'), '{}\n');
      await expect(restoreInstance({ db: restored!.db.db, storage, dataDir: restored!.dataDir, dir: broken, force: true })).rejects.toThrow(/damaged/);
      // a backup never goes into a folder that holds something
      await expect(backupInstance({ db: t.db.db, storage: t.deps.storage, dataDir: t.dataDir, dir })).rejects.toThrow(/not empty/);
    });
  });
}

describe('backup and restore through the CLI (SQLite data dir)', () => {
  it('npm run admin -- backup <dir>, then restore <dir> into a fresh data dir; restore again is refused without --force', async () => {
    const src = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-cli-src-'));
    const dst = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-cli-dst-'));
    const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'cadcloud-cli-bk-')), 'b');
    try {
      await runAdmin(['user', 'create', '--email', 'op@example.com', '--password', 'correct horse 1'], { DATA_DIR: src });
      const m = (await runAdmin(['backup', dir], { DATA_DIR: src })) as BackupManifest;
      expect(m.tables.users.rows).toBe(1);
      expect(m.tables.sso_accounts.rows).toBe(1);
      const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/admin/admin.cli.ts', ...args], { cwd: repoRoot, env: { ...process.env, DATA_DIR: dst, DATABASE_URL: '' }, encoding: 'utf8' });
      const r = cli('restore', dir);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).tables.users).toBe(1);
      expect(existsSync(path.join(dst, 'cadcloud.sqlite'))).toBe(true);
      const users = (await runAdmin(['user', 'list'], { DATA_DIR: dst })) as { email: string }[];
      expect(users.map((u) => u.email)).toEqual(['op@example.com']);
      const again = cli('restore', dir);
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/already holds data.*--force/);
      const forced = cli('restore', dir, '--force');
      expect(forced.status, forced.stderr).toBe(0);
    } finally {
      for (const d of [src, dst, path.dirname(dir)]) rmSync(d, { recursive: true, force: true });
    }
  }, 60_000);
});

const s3 = s3TestEnv('backup');
describe.runIf(s3)('backup and restore on S3', () => {
  let t: TestApp;
  const opened: TestApp[] = [];
  beforeAll(async () => {
    t = await createTestApp(testDatabaseDrivers()[0], s3!);
  });
  afterAll(async () => {
    for (const x of opened) await x.close();
    await t?.close();
  });

  it('records the object list by default (restore checks the bucket holds it) and copies the bytes with --objects', async () => {
    const a = await t.createUser();
    const body = randomBytes(9000);
    const id = (await t.upload(a.token, 'on-s3.bin', body)).bizData.id as string;
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-backup-s3-'));

    // listed: no bytes in the folder; a restore next to the same bucket gets the rows back and finds every object
    const listed = await backupInstance({ db: t.db.db, storage: t.deps.storage, dataDir: t.dataDir, dir: path.join(tmp, 'listed') });
    expect(listed.objects).toMatchObject({ mode: 'listed', count: 1, bytes: 9000, missing: [] });
    expect(existsSync(path.join(tmp, 'listed', 'objects'))).toBe(false);
    const sameBucket = await testDatabaseDrivers()[0].create({ migrate: false });
    await restoreInstance({ db: sameBucket.db, storage: t.deps.storage, dataDir: mkdtempSync(path.join(os.tmpdir(), 'cadcloud-restored-')), dir: path.join(tmp, 'listed') });
    // …and refuses when the bucket lacks one
    const emptyBucket = { ...s3!, S3_BUCKET: `${s3!.S3_BUCKET}-empty` };
    const other = await createTestApp(testDatabaseDrivers()[0], emptyBucket);
    opened.push(other);
    const blank = await testDatabaseDrivers()[0].create({ migrate: false });
    await expect(restoreInstance({ db: blank.db, storage: other.deps.storage, dataDir: other.dataDir, dir: path.join(tmp, 'listed') })).rejects.toThrow(/missing after the restore/);
    await blank.destroy();
    await sameBucket.destroy();

    // --objects: the bytes travel, into a new bucket
    const copied = await backupInstance({ db: t.db.db, storage: t.deps.storage, dataDir: t.dataDir, dir: path.join(tmp, 'copied'), copyObjects: true });
    expect(copied.objects).toMatchObject({ mode: 'copied', count: 1, bytes: 9000 });
    const fresh = await testDatabaseDrivers()[0].create({ migrate: false });
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cadcloud-restored-'));
    const target = { ...s3!, S3_BUCKET: `${s3!.S3_BUCKET}-copy` };
    const storage = createStorage(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite::memory:', PORT: '8080', ...target }));
    await (storage as unknown as { ensureBucket(): Promise<void> }).ensureBucket();
    await restoreInstance({ db: fresh.db, storage, dataDir, dir: path.join(tmp, 'copied') });
    const back = await createTestApp(testDatabaseDrivers()[0], target, { db: fresh, dataDir });
    opened.push(back);
    expect(await download(back, a.token, id)).toEqual(body);
    rmSync(tmp, { recursive: true, force: true });
  }, 60_000);
});
