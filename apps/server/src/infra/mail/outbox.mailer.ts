import type { Kysely } from 'kysely';
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
