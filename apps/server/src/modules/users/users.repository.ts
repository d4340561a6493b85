import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '../../infra/db/schema.ts';

export function createUsersRepository(db: Kysely<Database>) {
  return {
    async findBySub(sub: string) {
      return db.selectFrom('users').selectAll().where('sso_sub', '=', sub).executeTakeFirst();
    },
    async findByEmail(email: string) {
      return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
    },
    async findById(id: string) {
      return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    },
    async insert(row: Insertable<Database['users']>) {
      await db.insertInto('users').values(row).execute();
    },
    async update(id: string, patch: Updateable<Database['users']>) {
      await db.updateTable('users').set(patch).where('id', '=', id).execute();
    },
    async list() {
      return db.selectFrom('users').selectAll().orderBy('created_at').execute();
    },
  };
}
