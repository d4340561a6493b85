import type { Kysely } from 'kysely';

/** The login site's own tables (created by the product's one migration folder). */
export interface SsoTables {
  sso_accounts: { id: string; email: string; name: string; password_hash: string; created_at: number };
  sso_reset_tokens: { token_hash: string; account_id: string; expires_at: number; used_at: number | null };
  sso_attempts: { id: string; key: string; at: number };
  oidc_payloads: { id: string; type: string; payload: string; grant_id: string | null; user_code: string | null; uid: string | null; expires_at: number | null; consumed_at: number | null };
}

export type SsoDb = Kysely<SsoTables>;

export interface SsoMailer {
  send(msg: { to: string; subject: string; text: string; html?: string }): Promise<void>;
}
