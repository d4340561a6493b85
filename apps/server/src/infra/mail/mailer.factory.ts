import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { AppConfig } from '../config/index.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from './mail.types.ts';
import { recordMail } from './outbox.ts';

/** Without SMTP_URL mail is stored in the outbox for the operator (`npm run admin -- mail outbox`). */
export function createOutboxMailer(db: Kysely<Database>): Mailer {
  return {
    name: 'outbox',
    async send(msg) {
      await recordMail(db, msg, 'stored');
    },
  };
}

export function createSmtpMailer(db: Kysely<Database>, smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    name: 'smtp',
    async send(msg) {
      try {
        await transport.sendMail({ from, to: msg.to, subject: msg.subject, text: msg.text, html: msg.html });
      } catch (err) {
        await recordMail(db, msg, 'failed', (err as Error).message);
        throw err;
      }
      await recordMail(db, msg, 'sent');
    },
  };
}

export function createMailer(config: Pick<AppConfig, 'smtpUrl' | 'mailFrom'>, db: Kysely<Database>): Mailer {
  return config.smtpUrl ? createSmtpMailer(db, config.smtpUrl, config.mailFrom) : createOutboxMailer(db);
}
