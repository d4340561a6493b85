import { defineConfig, envEnum, envInt, envOptionalString, envString, envOptionalBool } from './config.ts';

export const serverConfig = defineConfig({
  port: { env: 'PORT', schema: envInt(8080, 1, 65535), doc: 'HTTP port of the web app and API' },
  host: { env: 'HOST', schema: envString('127.0.0.1'), doc: 'interface to listen on' },
  dataDir: { env: 'DATA_DIR', schema: envString('./data'), doc: 'folder for the SQLite file, local blobs and temp files' },
  publicUrl: { env: 'PUBLIC_URL', schema: envOptionalString(), doc: 'external base URL of the product (default http://HOST:PORT)' },
  processMode: { env: 'PROCESS_MODE', schema: envEnum(['all', 'web', 'worker'] as const, 'all'), doc: 'all | web | worker' },
  cookieSecure: { env: 'COOKIE_SECURE', schema: envOptionalBool(), doc: 'true or false forces the Secure flag on every cookie; unset: Secure when PUBLIC_URL (login site: SSO_ISSUER) is https' },
  sessionTtlDays: { env: 'SESSION_TTL_DAYS', schema: envInt(30, 1, 3650), doc: 'days a session ticket stays valid' },
  workerPort: { env: 'WORKER_PORT', schema: envInt(0, 0, 65535), doc: 'PROCESS_MODE=worker: port of its /healthz, /readyz and /metrics (on HOST); 0: the worker listens on no port' },
  metricsToken: { env: 'METRICS_TOKEN', schema: envOptionalString(), doc: 'operator token for /metrics (Authorization: Bearer …); unset: /metrics does not exist' },
  logLevel: { env: 'LOG_LEVEL', schema: envEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'), doc: 'level of the JSON log lines on stdout (each carries the request id of its request)' },
});
