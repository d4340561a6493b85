export { createSsoServer, type SsoServer, type SsoServerOptions, type SsoClient } from './sso.server.ts';
export { createAccountsService, AccountError, hashPassword, verifyPasswordHash, type AccountsService, type AccountsHooks } from './accounts.ts';
export { createAttemptLimiter, loginAttemptKey, normalizeEmail, type AttemptLimiter } from './attempt-limiter.ts';
export { clientKey } from './client-key.ts';
export type { SsoDb, SsoTables, SsoMailer } from './sso-db.ts';
