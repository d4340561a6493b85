import type { Kysely } from 'kysely';

// Call styles 3 and 4 (infra/http/signed-style.ts): the per-session secret of getRsaKey, stored encrypted with the
// installation's 'call-secret' key, and the replay cache of signed requests, shared by every server process through
// the database. Keep in step with ../schema.ts.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('call_secrets')
    // sha256 of the session's ticket (sessions.ticket_hash): the secret ends with the session
    .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
    /** base64url(iv ‖ AES-256-GCM(secret)) under the installation key */
    .addColumn('secret_enc', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('signed_nonces')
    // sha256(ticket hash, date, salt) of a signed request already answered
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('signed_nonces_expires').on('signed_nonces').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('signed_nonces').execute();
  await db.schema.dropTable('call_secrets').execute();
}
