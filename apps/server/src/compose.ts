import { mkdirSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from './app.deps.ts';
import type { AppConfig } from './infra/config/index.ts';
import { SERVER_APPLICATION_NAME } from './infra/db/db.ts';
import { createDatabase, migrateToLatest, createStorage, createQueue, createMailer, persistentSecret } from './infra/index.ts';
import { registerTrashJobs, TRASH_SWEEP_JOB } from './modules/trash/trash.jobs.ts';
import { instrumentQueue } from './infra/observability/instrument-queue.ts';
import { registerDownloadJobs } from './modules/downloads/downloads.jobs.ts';
import { indexPictureNamesOnce, registerThumbnailJobs } from './modules/thumbnails/thumbnails.jobs.ts';
import { registerDrawingJobs } from './modules/drawings/drawings.jobs.ts';
import { CONVERSION_SWEEP_EVERY_MS, registerConversionJobs } from './modules/conversions/conversions.jobs.ts';
import { registerModel3dJobs, MODEL3D_SWEEP_EVERY_MS } from './modules/model3d/model3d.jobs.ts';
import { MODEL3D_SWEEP_JOB } from './modules/model3d/model3d.service.ts';
import { CONVERSION_SWEEP_JOB } from './modules/conversions/conversions.service.ts';
import { registerUnzipJobs, UNZIP_SWEEP_EVERY_MS } from './modules/unzip/unzip.jobs.ts';
import { UNZIP_SWEEP_JOB } from './modules/unzip/unzip.service.ts';
import { ORDERS_TIMEOUT_EVERY_MS, ORDERS_TIMEOUT_JOB, registerOrdersJobs } from './modules/orders/orders.jobs.ts';
import { FREEZE_SWEEP_EVERY_MS, FREEZE_SWEEP_JOB, registerFreezeJobs } from './modules/freeze/freeze.jobs.ts';
import { relyingParty } from './modules/auth/auth.config.ts';
import { createSsoServer, type SsoDb } from '@cadcloud/sso';
import { uploadsDir } from './modules/uploads/upload-temp.ts';
import { createUploadSessions } from './modules/uploads/upload-sessions.ts';
import { liveInstances, startInstanceLease, sweepOrphanTemp } from './infra/instance.ts';
import { createProxyTrust } from './infra/http/proxy-trust.ts';
import { createSessionsService } from './modules/users/sessions.service.ts';
import { syncInstallationSecrets } from './infra/secrets.ts';

/** Builds every backend from the config (embedded defaults or scale-out drivers) and migrates the database. */
export async function createDeps(config: AppConfig): Promise<AppDeps> {
  mkdirSync(config.dataDir, { recursive: true });
  const db = createDatabase(config.databaseUrl, { applicationName: SERVER_APPLICATION_NAME });
  await migrateToLatest(db);
  // before anything signs: every process of the installation uses the secrets the database holds
  await syncInstallationSecrets(db, config.dataDir, { 'sso-jwks.json': () => JSON.stringify(newJwks()) });
  const storage = createStorage(config);
  if ('ensureBucket' in storage) await (storage as any).ensureBucket();
  const queue = instrumentQueue(createQueue(config, db));
  const mailer = createMailer(config, db);
  return { config, db, storage, queue, mailer };
}

/** Every job that does real work; the trash sweep runs hourly. */
export async function startJobs(deps: AppDeps) {
  registerTrashJobs(deps.queue, deps);
  registerDownloadJobs(deps.queue, deps);
  registerThumbnailJobs(deps.queue, deps);
  registerDrawingJobs(deps.queue, deps);
  registerConversionJobs(deps.queue, deps);
  registerModel3dJobs(deps.queue, deps);
  registerUnzipJobs(deps.queue, deps);
  registerOrdersJobs(deps.queue, deps);
  registerFreezeJobs(deps.queue, deps);
  await deps.queue.schedule(TRASH_SWEEP_JOB, 3600_000);
  await deps.queue.schedule(CONVERSION_SWEEP_JOB, CONVERSION_SWEEP_EVERY_MS);
  await deps.queue.schedule(MODEL3D_SWEEP_JOB, MODEL3D_SWEEP_EVERY_MS);
  await deps.queue.schedule(UNZIP_SWEEP_JOB, UNZIP_SWEEP_EVERY_MS);
  await deps.queue.schedule(ORDERS_TIMEOUT_JOB, ORDERS_TIMEOUT_EVERY_MS);
  await deps.queue.schedule(FREEZE_SWEEP_JOB, FREEZE_SWEEP_EVERY_MS);
  await indexPictureNamesOnce(deps.queue);
  await deps.queue.start();
}

const HOUR = 3600_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Temp files a killed server left behind (uploads in flight, zips being built, half-written objects) are never
 * visible as items; they go at start-up and every ten minutes after: every file whose owning process is no longer
 * alive (infra/instance.ts). A part of a resumable upload belongs to its session while the session exists. Files
 * named without an owner (older versions) go at once when this process is the only one alive at start-up,
 * else after a day; a session's part without its session after an hour (its row is written just after it).
 * Upload sessions idle longer than UPLOAD_SESSION_IDLE_MINUTES go first, with their parts and the quota they held.
 */
export async function sweepLeftovers(deps: AppDeps, o: { atStart: boolean }) {
  await createUploadSessions(deps).expireIdle();
  const live = await liveInstances(deps.config.dataDir);
  const alone = o.atStart && live.size === 1;
  const sessions = new Set((await deps.db.selectFrom('upload_sessions').select('id').execute()).map((s) => s.id));
  const removed = await sweepOrphanTemp(uploadsDir(deps.config.dataDir), live, (name, age) => {
    const session = /^session-(.+)\.part$/.exec(name)?.[1];
    if (session !== undefined) return !sessions.has(session) && (alone || age > HOUR);
    return alone || age > 24 * HOUR;
  });
  if (deps.storage.name === 'fs') removed.push(...(await sweepOrphanTemp(path.join(deps.config.dataDir, 'storage', '.tmp'), live, (_name, age) => alone || age > 24 * HOUR)));
  return removed;
}

/** This process's lease among those sharing DATA_DIR, the sweep of what dead ones left, now and every ten minutes. */
export async function startHousekeeping(deps: AppDeps) {
  const lease = await startInstanceLease(deps.config.dataDir);
  await sweepLeftovers(deps, { atStart: true });
  const timer = setInterval(() => {
    sweepLeftovers(deps, { atStart: false }).catch((e) => console.error('temp file sweep failed', e));
  }, SWEEP_EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await lease.stop();
    },
  };
}

function newJwks() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' }] };
}

/** RSA key for ID tokens, generated once per installation (createDeps copies the database's into DATA_DIR). */
function persistentJwks(dataDir: string) {
  const file = path.join(dataDir, 'secrets', 'sso-jwks.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(path.dirname(file), { recursive: true });
  const jwks = newJwks();
  writeFileSync(file, JSON.stringify(jwks), { mode: 0o600 });
  return jwks;
}

/** The built-in login site, wired to the product as its one client. */
export async function createBuiltInSso(deps: AppDeps) {
  const rp = relyingParty(deps.config);
  const sessions = createSessionsService(deps);
  const { config } = deps;
  return createSsoServer({
    db: deps.db as unknown as SsoDb,
    mailer: { send: (m) => deps.mailer.send(m) },
    issuer: deps.config.ssoIssuer,
    clients: [{ clientId: rp.clientId, clientSecret: rp.clientSecret, redirectUris: [rp.redirectUri], postLogoutRedirectUris: [rp.postLogoutRedirectUri] }],
    cookieKeys: [persistentSecret(deps.config.dataDir, 'sso-cookie')],
    jwks: persistentJwks(deps.config.dataDir),
    productUrl: deps.config.publicUrl,
    trustProxy: createProxyTrust(config.trustedProxies),
    cookieSecure: config.ssoCookieSecure,
    // a new password ends the product's sessions of that account too
    onPasswordChanged: (accountId) => sessions.endAllSessionsOfAccount(accountId),
    timeouts: { headersMs: config.headersTimeoutMs, requestMs: config.requestTimeoutMs, keepAliveMs: config.keepAliveTimeoutMs },
  });
}
