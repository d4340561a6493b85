import { mkdirSync } from 'node:fs';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AppDeps } from './app.deps.ts';
import type { AppConfig } from './infra/config/index.ts';
import { createDatabase, migrateToLatest, createStorage, createQueue, createMailer, persistentSecret } from './infra/index.ts';
import { registerTrashJobs, TRASH_SWEEP_JOB } from './modules/trash/trash.jobs.ts';
import { registerDownloadJobs } from './modules/downloads/downloads.jobs.ts';
import { indexPictureNamesOnce, registerThumbnailJobs } from './modules/thumbnails/thumbnails.jobs.ts';
import { registerDrawingJobs } from './modules/drawings/drawings.jobs.ts';
import { relyingParty } from './modules/auth/auth.config.ts';
import { createSsoServer, type SsoDb } from '@cadcloud/sso';
import { sweepUploadTemp } from './modules/uploads/upload-temp.ts';
import { sweepFsTemp } from './infra/storage/fs.driver.ts';
import { createProxyTrust } from './infra/http/proxy-trust.ts';
import { createSessionsService } from './modules/users/sessions.service.ts';

/** Builds every backend from the config (embedded defaults or scale-out drivers) and migrates the database. */
export async function createDeps(config: AppConfig): Promise<AppDeps> {
  mkdirSync(config.dataDir, { recursive: true });
  const db = createDatabase(config.databaseUrl);
  await migrateToLatest(db);
  const storage = createStorage(config);
  if ('ensureBucket' in storage) await (storage as any).ensureBucket();
  const queue = createQueue(config, db);
  const mailer = createMailer(config, db);
  return { config, db, storage, queue, mailer };
}

/** Every job that does real work; the trash sweep runs hourly. */
export async function startJobs(deps: AppDeps) {
  await sweepLeftovers(deps);
  registerTrashJobs(deps.queue, deps);
  registerDownloadJobs(deps.queue, deps);
  registerThumbnailJobs(deps.queue, deps);
  registerDrawingJobs(deps.queue, deps);
  await deps.queue.schedule(TRASH_SWEEP_JOB, 3600_000);
  await indexPictureNamesOnce(deps.queue);
  await deps.queue.start();
}

/**
 * Temp files a killed server left behind (uploads in flight, half-written objects): never visible as items,
 * removed at start once they are a day old. Parts of resumable upload sessions are kept.
 */
async function sweepLeftovers(deps: AppDeps) {
  const sessions = await deps.db.selectFrom('upload_sessions').select('id').execute();
  await sweepUploadTemp(deps.config.dataDir, new Set(sessions.map((s) => `session-${s.id}.part`)));
  if (deps.storage.name === 'fs') await sweepFsTemp(path.join(deps.config.dataDir, 'storage'), 24 * 3600_000);
}

/** RSA key for ID tokens, generated once per installation. */
function persistentJwks(dataDir: string) {
  const file = path.join(dataDir, 'secrets', 'sso-jwks.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  mkdirSync(path.dirname(file), { recursive: true });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };
  const jwks = { keys: [jwk] };
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
