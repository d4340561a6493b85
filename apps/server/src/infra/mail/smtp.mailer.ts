import nodemailer from 'nodemailer';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Mailer } from './mail.types.ts';
import { recordMail } from './outbox.ts';

/**
 * Sends through SMTP_URL and records every message in the outbox as 'sent' or 'failed' (with the server's
 * answer), so the operator sees what went out and what did not. A failure rejects: the caller decides.
 */
export function createSmtpMailer(db: Kysely<Database>, smtpUrl: string, from: string): Mailer {
  // bounded waits: a dead mail server must fail the send (and be recorded), not hold the request for minutes
  const transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 });
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
