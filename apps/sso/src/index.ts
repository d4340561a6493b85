export { createSsoServer, type SsoServer, type SsoServerOptions, type SsoClient } from './sso.server.ts';
export { createAccountsService, AccountError, hashPassword, verifyPasswordHash, type AccountsService } from './accounts.ts';
export { createAttemptLimiter } from './attempt-limiter.ts';
export type { SsoDb, SsoTables, SsoMailer } from './sso-db.ts';
