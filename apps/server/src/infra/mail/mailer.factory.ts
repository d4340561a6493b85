import type { Kysely } from 'kysely';
import type { AppConfig } from '../config/index.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from './mail.types.ts';
import { createOutboxMailer } from './outbox.mailer.ts';
import { createSmtpMailer } from './smtp.mailer.ts';

export { createOutboxMailer, createSmtpMailer };

/** SMTP when SMTP_URL is set, else the outbox the operator reads. */
export function createMailer(config: Pick<AppConfig, 'smtpUrl' | 'mailFrom'>, db: Kysely<Database>): Mailer {
  return config.smtpUrl ? createSmtpMailer(db, config.smtpUrl, config.mailFrom) : createOutboxMailer(db);
}
