import type { AppDeps } from '../../app.deps.ts';
import { newId } from '../../infra/db/ids.ts';
import { isUniqueViolation } from '../../infra/db/db.ts';
import { refreshFreeze } from '../../infra/db/freeze-state.ts';
import { createUsersRepository } from './users.repository.ts';

/** Product accounts, linked to login-site accounts by the OpenID subject. */
export function createUsersService(deps: Pick<AppDeps, 'db' | 'config'>) {
  const repo = createUsersRepository(deps.db);
  return {
    repo,
    async findOrCreateBySso(o: { sub: string; email: string; name?: string }) {
      const existing = await repo.findBySub(o.sub);
      if (existing) return existing;
      const row = { id: newId(), sso_sub: o.sub, email: o.email.toLowerCase(), name: o.name || o.email.split('@')[0], vip_type: 0, storage_quota: deps.config.storageDefaultQuota, storage_used: 0, storage_reserved: 0, freeze: 0, drive_rev: 0, created_at: Date.now(), disabled_at: null, frozen_at: null, purge_warned_at: null, free_unfreeze_until: null, free_unfreeze_used_at: null };
      try {
        await repo.insert(row);
        return row;
      } catch (e) {
        // two first sign-ins at once: the other one created it
        if (isUniqueViolation(e)) {
          const again = await repo.findBySub(o.sub);
          if (again) return again;
        }
        throw e;
      }
    },
    /** Freeze follows the spec: frozen when stored files exceed the space. */
    async setQuota(userId: string, bytes: number) {
      const u = await repo.findById(userId);
      if (!u) throw new Error('no such user');
      await repo.update(userId, { storage_quota: bytes });
      // the space is this base plus what active entitlements add (modules/membership)
      await refreshFreeze(deps.db, userId, Date.now());
      return repo.findById(userId);
    },
    /** Disables (ends every session, refuses new ones) or enables an account; its drive is untouched. */
    async setDisabled(userId: string, disabled: boolean) {
      await repo.update(userId, { disabled_at: disabled ? Date.now() : null });
      if (disabled) await deps.db.deleteFrom('sessions').where('user_id', '=', userId).execute();
      return repo.findById(userId);
    },
    async setVip(userId: string, vipType: number) {
      await repo.update(userId, { vip_type: vipType });
      return repo.findById(userId);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
