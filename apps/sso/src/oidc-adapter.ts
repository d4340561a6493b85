import type { SsoDb } from './sso-db.ts';

/**
 * oidc-provider storage in the database (sessions, grants, codes, tokens), so sign-ins survive a restart
 * and several processes share them. One row per (model, id).
 */
export function createAdapterClass(db: SsoDb) {
  return class KyselyAdapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: Record<string, any>, expiresIn?: number) {
      const row = {
        id,
        type: this.model,
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        user_code: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expires_at: expiresIn ? Date.now() + expiresIn * 1000 : null,
        consumed_at: null,
      };
      await db
        .insertInto('oidc_payloads')
        .values(row)
        .onConflict((oc) => oc.columns(['type', 'id']).doUpdateSet({ payload: row.payload, grant_id: row.grant_id, user_code: row.user_code, uid: row.uid, expires_at: row.expires_at }))
        .execute();
    }

    private async one(where: 'id' | 'uid' | 'user_code', value: string) {
      const r = await db.selectFrom('oidc_payloads').selectAll().where('type', '=', this.model).where(where, '=', value).executeTakeFirst();
      if (!r || (r.expires_at !== null && r.expires_at < Date.now())) return undefined;
      return { ...JSON.parse(r.payload), ...(r.consumed_at ? { consumed: Math.floor(r.consumed_at / 1000) } : {}) };
    }

    find(id: string) {
      return this.one('id', id);
    }
    findByUid(uid: string) {
      return this.one('uid', uid);
    }
    findByUserCode(code: string) {
      return this.one('user_code', code);
    }
    async consume(id: string) {
      await db.updateTable('oidc_payloads').set({ consumed_at: Date.now() }).where('type', '=', this.model).where('id', '=', id).execute();
    }
    async destroy(id: string) {
      await db.deleteFrom('oidc_payloads').where('type', '=', this.model).where('id', '=', id).execute();
    }
    async revokeByGrantId(grantId: string) {
      await db.deleteFrom('oidc_payloads').where('grant_id', '=', grantId).execute();
    }
  };
}
