import type { Kysely } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

export function createSessionsRepository(db: Kysely<Database>) {
  return {
    async insert(row: Database['sessions'] extends infer T ? T : never) {
      await db.insertInto('sessions').values(row).execute();
    },
    async findUserByTicketHash(ticketHash: string, now: number) {
      return db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .selectAll('users')
        .select(['sessions.client_type as session_client_type'])
        .where('sessions.ticket_hash', '=', ticketHash)
        .where('sessions.expires_at', '>', now)
        .where('users.disabled_at', 'is', null)
        .executeTakeFirst();
    },
    async delete(ticketHash: string) {
      await db.deleteFrom('sessions').where('ticket_hash', '=', ticketHash).execute();
    },
    /** Every session of the product user linked to this login-site account. */
    async deleteAllOfSsoSub(sub: string) {
      await db.deleteFrom('sessions').where('user_id', 'in', db.selectFrom('users').select('id').where('sso_sub', '=', sub)).execute();
    },
    async deleteExpired(now: number) {
      await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
    },
  };
}
