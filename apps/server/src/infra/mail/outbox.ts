import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MailMessage } from './mail.types.ts';

/** Every message is recorded here, sent or not, so the operator can always see what went out. */
export async function recordMail(db: Kysely<Database>, msg: MailMessage, status: 'stored' | 'sent' | 'failed', error: string | null = null) {
  await db
    .insertInto('mail_outbox')
    .values({ to_addr: [msg.to].flat().join(', '), subject: msg.subject, text: msg.text, html: msg.html ?? null, status, error, created_at: Date.now() })
    .execute();
}

export async function listOutbox(db: Kysely<Database>, opts: { limit?: number } = {}) {
  return db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(opts.limit ?? 50).execute();
}
