import path from 'node:path';
import { ConfigError, loadConfigFrom, type ConfigValues } from './config.ts';
import { serverConfig } from './server.config.ts';
import { quotaConfig } from './quota.config.ts';
import { ssoConfig } from './sso.config.ts';
import { dbConfig } from '../db/db.config.ts';
import { storageConfig } from '../storage/storage.config.ts';
import { queueConfig } from '../queue/queue.config.ts';
import { mailConfig } from '../mail/mail.config.ts';
import { drawingsConfig } from '../../modules/drawings/drawings.config.ts';
import { sharesConfig } from '../../modules/shares/shares.config.ts';
import { downloadsConfig } from '../../modules/downloads/downloads.config.ts';
import { thumbnailsConfig } from './thumbnails.config.ts';
import { httpConfig } from '../http/http.config.ts';
import { DEFAULT_WORKER_MEMORY_LIMIT_MB, workersConfig } from '../workers/workers.config.ts';
import { uploadsConfig } from '../../modules/uploads/uploads.config.ts';
import { conversionsConfig } from '../../modules/conversions/conversions.config.ts';
import { model3dConfig } from '../../modules/model3d/model3d.config.ts';
import { unzipConfig } from '../../modules/unzip/unzip.config.ts';
import { membershipConfig } from '../../modules/membership/membership.config.ts';
import { groupsConfig } from '../../modules/groups/groups.config.ts';
import { ordersConfig } from '../../modules/orders/orders.config.ts';
import { providersConfig } from '../../modules/orders/providers/providers.config.ts';
import { commonConfig } from '../../modules/common/common.config.ts';
import { feedbackConfig } from '../../modules/feedback/feedback.config.ts';
import { operatorConfig } from '../../modules/operator/operator.config.ts';

/** Every module's declarations; add a module's config here. */
export const configDefinitions = {
  ...serverConfig,
  ...httpConfig,
  ...quotaConfig,
  ...uploadsConfig,
  ...ssoConfig,
  ...dbConfig,
  ...storageConfig,
  ...queueConfig,
  ...mailConfig,
  ...thumbnailsConfig,
  ...drawingsConfig,
  ...workersConfig,
  ...sharesConfig,
  ...downloadsConfig,
  ...conversionsConfig,
  ...model3dConfig,
  ...unzipConfig,
  ...membershipConfig,
  ...groupsConfig,
  ...feedbackConfig,
  ...operatorConfig,
  ...ordersConfig,
  ...providersConfig,
  ...commonConfig,
};

export type AppConfig = ConfigValues<typeof configDefinitions> & {
  /** resolved, absolute */
  dataDir: string;
  databaseUrl: string;
  publicUrl: string;
  ssoPort: number;
  ssoIssuer: string;
  /** Secure on the product's cookies: COOKIE_SECURE, else whether PUBLIC_URL is https */
  cookieSecure: boolean;
  /** the same for the built-in login site's cookies, from its issuer URL */
  ssoCookieSecure: boolean;
  /** WORKER_MEMORY_LIMIT_MB, else the default or the budget if that is smaller */
  workerMemoryLimitMb: number;
};

/** One validated config; cross-field rules are checked here so the message still names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const raw = loadConfigFrom(configDefinitions, env);
  const problems: { env: string; message: string }[] = [];
  if (raw.storageDriver === 's3') {
    // S3_ENDPOINT stays optional: without it the SDK talks to AWS S3 in S3_REGION
    for (const [key, name] of [['s3Bucket', 'S3_BUCKET'], ['s3AccessKeyId', 'S3_ACCESS_KEY_ID'], ['s3SecretAccessKey', 'S3_SECRET_ACCESS_KEY']] as const) {
      if (!raw[key]) problems.push({ env: name, message: 'required when STORAGE_DRIVER=s3' });
    }
  }
  if (raw.workerMemoryLimitMbSet !== undefined && raw.workerMemoryLimitMbSet > raw.workerMemoryBudgetMb) {
    problems.push({ env: 'WORKER_MEMORY_LIMIT_MB', message: `one worker's limit (${raw.workerMemoryLimitMbSet}) must fit in WORKER_MEMORY_BUDGET_MB (${raw.workerMemoryBudgetMb})` });
  }
  if (problems.length) throw new ConfigError(problems);
  const dataDir = path.resolve(raw.dataDir);
  const ssoPort = raw.ssoPort || raw.port + 1;
  const publicUrl = (raw.publicUrl ?? `http://${raw.host}:${raw.port}`).replace(/\/$/, '');
  const ssoIssuer = (raw.ssoIssuer ?? `http://${raw.host}:${ssoPort}`).replace(/\/$/, '');
  return {
    ...raw,
    dataDir,
    databaseUrl: raw.databaseUrl ?? `sqlite:${path.join(dataDir, 'cadcloud.sqlite')}`,
    publicUrl,
    ssoPort,
    ssoIssuer,
    cookieSecure: raw.cookieSecure ?? publicUrl.startsWith('https:'),
    ssoCookieSecure: raw.cookieSecure ?? ssoIssuer.startsWith('https:'),
    workerMemoryLimitMb: raw.workerMemoryLimitMbSet ?? Math.min(DEFAULT_WORKER_MEMORY_LIMIT_MB, raw.workerMemoryBudgetMb),
  };
}

export { ConfigError };
