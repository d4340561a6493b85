/**
 * Integration-test harness: the real app on a real database (SQLite or PostgreSQL), local-disk storage in a
 * temp folder, the database job queue and the outbox mailer. Requests go through Fastify's inject (real
 * routing, parsing, hooks), so no port is needed.
 *   const t = await createTestApp(driver);  const a = await t.createUser();  await t.call('/cloud/v5/union/list', {}, a.token)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.deps.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../infra/config/index.ts';
import { createStorage } from '../infra/storage/storage.factory.ts';
import { createDbQueue } from '../infra/queue/db.queue.ts';
import { createMailer } from '../infra/mail/mailer.factory.ts';
import { newId } from '../infra/db/ids.ts';
import type { TestDatabaseDriver, TestDatabase } from '../infra/db/test-databases.ts';
import { createSessionsService } from '../modules/users/sessions.service.ts';
import { registerDownloadJobs } from '../modules/downloads/downloads.jobs.ts';
import { registerTrashJobs } from '../modules/trash/trash.jobs.ts';

export interface Envelope<T = any> {
  rtnCode: string;
  bizData: T;
  msg: string;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  db: TestDatabase;
  dataDir: string;
  createUser(o?: { email?: string; quota?: number; freeze?: number }): Promise<{ id: string; email: string; token: string }>;
  call<T = any>(path: string, data: unknown, token?: string, lang?: string): Promise<Envelope<T>>;
  upload(token: string, name: string, body: Buffer, fields?: Record<string, string>): Promise<Envelope>;
  /** GETs a download link or signed URL in process; `token`: as the signed-in user (their session, as a browser sends its cookie). */
  fetchSigned(url: string, token?: string): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }>;
  usage(uid: string): Promise<{ used: number; quota: number }>;
  close(): Promise<void>;
}

export const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

/**
 * The app's settings for the signature-checking S3 test server (TEST_S3_ENDPOINT, …), with a fresh bucket named
 * `cadcloud-<prefix>-…`; undefined when no such server is configured (the caller's tests are skipped).
 */
export function s3TestEnv(prefix: string): Record<string, string> | undefined {
  const endpoint = process.env.TEST_S3_ENDPOINT;
  if (!endpoint) return undefined;
  return {
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: endpoint,
    S3_REGION: process.env.TEST_S3_REGION ?? 'us-east-1',
    S3_BUCKET: `cadcloud-${prefix}-${randomBytes(4).toString('hex')}`,
    S3_ACCESS_KEY_ID: process.env.TEST_S3_ACCESS_KEY_ID!,
    S3_SECRET_ACCESS_KEY: process.env.TEST_S3_SECRET_ACCESS_KEY!,
  };
}

/** `existing`: run on a database and data folder made beforehand (a restored backup) instead of fresh ones. */
export async function createTestApp(driver: TestDatabaseDriver, env: Record<string, string> = {}, existing: { db?: TestDatabase; dataDir?: string } = {}): Promise<TestApp> {
  const dataDir = existing.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'cadcloud-app-'));
  const db = existing.db ?? (await driver.create());
  const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: 'sqlite::memory:', PORT: '8080', ...env });
  const deps: AppDeps = { config, db: db.db, storage: createStorage(config), queue: createDbQueue(db.db, { pollMs: 20 }), mailer: createMailer(config, db.db) };
  if ('ensureBucket' in deps.storage) await (deps.storage as { ensureBucket(): Promise<void> }).ensureBucket();
  registerTrashJobs(deps.queue, deps);
  registerDownloadJobs(deps.queue, deps);
  await deps.queue.start();
  const app = await buildApp(deps);
  const sessions = createSessionsService(deps);

  const t: TestApp = {
    app,
    deps,
    db,
    dataDir,
    async createUser(o = {}) {
      const id = newId();
      const email = o.email ?? `${id.toLowerCase()}@example.com`;
      await db.db
        .insertInto('users')
        .values({ id, sso_sub: `sub-${id}`, email, name: email.split('@')[0], vip_type: 0, storage_quota: o.quota ?? 100 * 1024 * 1024, storage_used: 0, freeze: o.freeze ?? 0, created_at: Date.now() })
        .execute();
      const { ticket } = await sessions.createSession(id, 'Web_PC');
      return { id, email, token: ticket };
    },
    async call(p, data, token, lang = 'en') {
      const r = await app.inject({ method: 'POST', url: token ? `${p}?utoken=${encodeURIComponent(token)}` : p, payload: { data, clientInfo: { clientType: 'Web_PC', language: lang } } });
      return r.json();
    },
    async upload(token, name, body, fields = {}) {
      const boundary = `----cc${Date.now()}`;
      const parts: Buffer[] = [];
      for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
      parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="filedata"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), body, Buffer.from(`\r\n--${boundary}--\r\n`));
      const r = await app.inject({ method: 'POST', url: `/cloud/v5/file/upload?utoken=${encodeURIComponent(token)}`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': 'en' }, payload: Buffer.concat(parts) });
      return r.json();
    },
    async fetchSigned(url, token) {
      const u = new URL(url, config.publicUrl);
      if (token) u.searchParams.set('utoken', token);
      const r = await app.inject({ method: 'GET', url: u.pathname + u.search });
      return { status: r.statusCode, body: r.rawPayload, headers: r.headers };
    },
    async usage(uid) {
      const u = await db.db.selectFrom('users').select(['storage_used', 'storage_quota']).where('id', '=', uid).executeTakeFirstOrThrow();
      return { used: Number(u.storage_used), quota: Number(u.storage_quota) };
    },
    async close() {
      await deps.queue.stop();
      await app.close();
      await db.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return t;
}
