import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Tables of hour and day windows per key (mail_send_counts: a user's share mails; feedback_counts: feedback per user and address). */
export type CountTable = 'mail_send_counts' | 'feedback_counts';

export interface MailLimits {
  perHour: number;
  perDay: number;
}

/**
 * Reserves `n` messages of a user's mail budget (an hour and a day, each a window that starts with the first
 * message after the previous one ended), atomically in the database so parallel requests of any server process
 * cannot overdraw it. Answers 'ok', or which budget `n` more would exceed (then nothing is reserved).
 */
export async function reserveUserMail(db: Kysely<Database>, uid: string, n: number, limits: MailLimits, now: number, table: CountTable = 'mail_send_counts'): Promise<'ok' | 'hour' | 'day'> {
  if (!(await reserve(db, table, uid, 'hour', HOUR_MS, limits.perHour, n, now))) return 'hour';
  if (!(await reserve(db, table, uid, 'day', DAY_MS, limits.perDay, n, now))) {
    await returnUserMail(db, uid, n, ['hour'], table);
    return 'day';
  }
  return 'ok';
}

/** Gives back reserved messages that were not sent. */
export async function returnUserMail(db: Kysely<Database>, uid: string, n: number, periods = ['hour', 'day'], table: CountTable = 'mail_send_counts') {
  if (n <= 0) return;
  await db.updateTable(table).set({ sent: sql`case when sent > ${n} then sent - ${n} else 0 end` }).where('uid', '=', uid).where('period', 'in', periods).execute();
}

async function reserve(db: Kysely<Database>, table: CountTable, uid: string, period: string, windowMs: number, limit: number, n: number, now: number): Promise<boolean> {
  if (n > limit) return false;
  const T = sql.ref(table);
  const stale = now - windowMs;
  const r = await db
    .insertInto(table)
    .values({ uid, period, window_start: now, sent: n })
    .onConflict((oc) =>
      oc
        .columns(['uid', 'period'])
        .doUpdateSet({
          sent: sql`case when ${T}.window_start <= ${stale} then ${n} else ${T}.sent + ${n} end`,
          window_start: sql`case when ${T}.window_start <= ${stale} then ${now} else ${T}.window_start end`,
        })
        .where(sql<boolean>`${T}.window_start <= ${stale} or ${T}.sent + ${n} <= ${limit}`),
    )
    .returning('sent')
    .executeTakeFirst();
  return !!r;
}
