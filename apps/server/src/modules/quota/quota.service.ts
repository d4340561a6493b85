import type { AppDeps } from '../../app.deps.ts';
import { appError } from '../../infra/http/app-error.ts';
import type { ErrorCode } from '@cadcloud/contracts';
import { createQuotaRepository } from './quota.repository.ts';

/**
 * Storage accounting. Used storage counts private files that are not in the recycle bin (public drawings
 * and trash do not count, so restoring can be refused for lack of space, as the spec says). The space is the base
 * (users.storage_quota) plus what the active entitlements add (modules/membership).
 */
export function createQuotaService(deps: Pick<AppDeps, 'db'>, clock: () => number = Date.now) {
  const repo = createQuotaRepository(deps.db, clock);
  return {
    async reserve(uid: string, bytes: number, error: ErrorCode = 'upload.noSpace') {
      if (bytes <= 0) return;
      if (!(await repo.tryReserve(uid, bytes))) throw appError(error);
    },
    async release(uid: string, bytes: number) {
      if (bytes > 0) await repo.release(uid, bytes);
    },
    async usage(uid: string) {
      const u = await repo.usage(uid);
      // reserved: what unfinished uploads hold (not shown as used, but not free either)
      return { used: u?.storage_used ?? 0, reserved: Number(u?.storage_reserved ?? 0), total: Number(u?.storage_total ?? 0), freeze: u?.freeze ?? 0 };
    },
    /** Recomputes used storage from the items (operator repair; after quota changes). */
    async recalculate(uid: string) {
      const used = await repo.sumPrivateFiles(uid);
      await repo.setUsed(uid, used);
      return used;
    },
  };
}

export type QuotaService = ReturnType<typeof createQuotaService>;
