import { createHmac } from 'node:crypto';
import { sql } from 'kysely';
import { FREE_UNFREEZE_DAYS, FREE_UNFREEZE_REGISTERED_BEFORE, FROZEN_PURGE_MONTHS, FROZEN_PURGE_WARNING_DAYS, ORDER_PATHS } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { frozenSql, refreshFreeze } from '../../infra/db/freeze-state.ts';
import { storageTotalSql } from '../../infra/db/storage-total.ts';
import { appError } from '../../infra/http/app-error.ts';
import { sameText } from '../../infra/http/same-text.ts';
import { reserveUserMail } from '../../infra/mail/mail-budget.ts';
import { persistentSecret } from '../../infra/storage/storage.factory.ts';
import { createFilesService } from '../files/files.service.ts';
import { freeUnfreezeMail, purgeWarningMail } from './freeze-mail.ts';

const DAY = 86_400_000;
/** How long the confirmation link of the free unfreeze works. */
export const FREE_UNFREEZE_LINK_MS = DAY;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** The confirmation mail is not a relay: a few per account and hour, as the mail layer counts them. */
const MAIL_LIMITS = { perHour: 3, perDay: 5 };

/** Calendar months (the spec's "3 months"): 31 Jan + 1 month is the last day of February, at the same time of day. */
export function addMonths(at: number, months: number): number {
  const d = new Date(at);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d.getTime();
}
export const purgeAtOf = (frozenAt: number) => addMonths(frozenAt, FROZEN_PURGE_MONTHS);

/**
 * Freeze and unfreeze (issue 22 part 5; spec section 4). The rule itself is infra/db/freeze-state.ts (frozen while the
 * stored files exceed the space), applied whenever the used storage or the space changes; this service adds what
 * time does: an entitlement that ended (the state read and the scheduled sweep), the one-time free unfreeze, and the
 * purge of frozen files 3 months after the freeze, with a warning mail a week before. `clock` is injectable.
 */
export function createFreezeService(deps: AppDeps, clock: () => number = Date.now) {
  const files = createFilesService(deps);
  let secret: string | undefined;
  const sign = (body: string) => createHmac('sha256', (secret ??= persistentSecret(deps.config.dataDir, 'free-unfreeze'))).update(body).digest('base64url');

  async function account(uid: string) {
    return deps.db.selectFrom('users').select(['id', 'email', 'created_at', 'freeze', 'frozen_at', 'storage_used', storageTotalSql(clock()).as('total'), 'free_unfreeze_until', 'free_unfreeze_used_at']).where('id', '=', uid).executeTakeFirst();
  }
  const eligible = (u: { created_at: number; free_unfreeze_used_at: number | null }) => Number(u.created_at) < FREE_UNFREEZE_REGISTERED_BEFORE && u.free_unfreeze_used_at == null;

  const service = {
    /** The caller's freeze state, brought up to date first (a membership that ended since freezes here). */
    async state(uid: string) {
      await refreshFreeze(deps.db, uid, clock());
      const u = await account(uid);
      if (!u) throw appError('item.notFound');
      const frozenAt = u.frozen_at == null ? null : Number(u.frozen_at);
      const until = u.free_unfreeze_until == null ? null : Number(u.free_unfreeze_until);
      return {
        freeze: u.freeze,
        frozenAt: u.freeze === 1 ? frozenAt : null,
        purgeAt: u.freeze === 1 && frozenAt != null ? purgeAtOf(frozenAt) : null,
        used: Number(u.storage_used),
        total: Number(u.total),
        freeUnfreezeAvailable: eligible({ created_at: Number(u.created_at), free_unfreeze_used_at: u.free_unfreeze_used_at }),
        freeUnfreezeUntil: until != null && until > clock() ? until : null,
      };
    },

    /**
     * Spec sections 4 and 5: the one-time free unfreeze. The e-mail must be the account's own (the mail is no relay);
     * the account must be frozen, registered before October 2017 and not have used it. Sends the confirmation link.
     */
    async requestFreeUnfreeze(uid: string, rawEmail: string, language?: string) {
      const email = rawEmail.trim();
      if (!email) throw appError('unfreeze.emailRequired');
      if (!EMAIL.test(email) || email.length > 254) throw appError('unfreeze.emailInvalid');
      await refreshFreeze(deps.db, uid, clock());
      const u = await account(uid);
      if (!u) throw appError('item.notFound');
      if (email.toLowerCase() !== u.email.toLowerCase()) throw appError('unfreeze.failed', [], { reason: 'emailMismatch' });
      if (Number(u.created_at) >= FREE_UNFREEZE_REGISTERED_BEFORE) throw appError('unfreeze.failed', [], { reason: 'registeredTooLate' });
      if (u.free_unfreeze_used_at != null) throw appError('unfreeze.failed', [], { reason: 'used' });
      if (u.freeze !== 1) throw appError('unfreeze.failed', [], { reason: 'notFrozen' });
      if ((await reserveUserMail(deps.db, uid, 1, MAIL_LIMITS, clock())) !== 'ok') throw appError('unfreeze.failed', [], { reason: 'tooManyMails' });
      const body = Buffer.from(JSON.stringify({ u: uid, x: clock() + FREE_UNFREEZE_LINK_MS })).toString('base64url');
      const url = `${deps.config.publicUrl}${ORDER_PATHS.freeUnfreezeConfirm}?token=${body}.${sign(body)}`;
      await deps.mailer.send({ to: u.email, ...freeUnfreezeMail(language, url) });
      return { sent: true };
    },

    /** The confirmation link: unfrozen for FREE_UNFREEZE_DAYS from now, once per account (a second click does nothing). */
    async confirmFreeUnfreeze(token: string) {
      const [body, mac] = token.split('.');
      if (!body || !mac || !sameText(mac, sign(body))) throw appError('unfreeze.failed', [], { reason: 'badLink' });
      let claim: { u?: unknown; x?: unknown };
      try {
        claim = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        throw appError('unfreeze.failed', [], { reason: 'badLink' });
      }
      const now = clock();
      if (typeof claim.u !== 'string' || typeof claim.x !== 'number' || claim.x <= now) throw appError('unfreeze.failed', [], { reason: 'linkExpired' });
      const until = now + FREE_UNFREEZE_DAYS * DAY;
      // once: only while unused, checked in the same statement that takes it
      const r = await deps.db
        .updateTable('users')
        .set({ free_unfreeze_used_at: now, free_unfreeze_until: until })
        .where('id', '=', claim.u)
        .where('free_unfreeze_used_at', 'is', null)
        .where('created_at', '<', FREE_UNFREEZE_REGISTERED_BEFORE)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) throw appError('unfreeze.failed', [], { reason: 'used' });
      await refreshFreeze(deps.db, claim.u, now);
      return { uid: claim.u, until };
    },

    /**
     * The scheduled check: every account whose flag no longer follows the rule (an entitlement or the free unfreeze
     * ended, or began) is brought in step; frozen accounts get the warning mail a week before the purge, and at
     * 3 months their frozen files are deleted through the drive's own delete (quota, blobs, versions stay consistent).
     */
    async sweep() {
      const now = clock();
      let refreshed = 0;
      for (;;) {
        const stale = await deps.db.selectFrom('users').select('id').where(sql<boolean>`users.freeze <> ${frozenSql(now)}`).limit(200).execute();
        for (const s of stale) if ((await refreshFreeze(deps.db, s.id, now)).changed) refreshed++;
        if (stale.length < 200) break;
      }
      // accounts frozen before frozen_at existed: their 3 months start now, never in the past
      await deps.db.updateTable('users').set({ frozen_at: now }).where('freeze', '=', 1).where('frozen_at', 'is', null).execute();
      let warned = 0;
      let purged = 0;
      const frozen = await deps.db.selectFrom('users').select(['id', 'email', 'frozen_at', 'purge_warned_at']).where('freeze', '=', 1).where('frozen_at', 'is not', null).execute();
      for (const u of frozen) {
        const purgeAt = purgeAtOf(Number(u.frozen_at));
        if (now >= purgeAt) purged += await service.purgeFrozenFiles(u.id);
        else if (u.purge_warned_at == null && now >= purgeAt - FROZEN_PURGE_WARNING_DAYS * DAY) {
          // marked first: a failing mail is not retried every run, nor sent twice by two workers
          const r = await deps.db.updateTable('users').set({ purge_warned_at: now }).where('id', '=', u.id).where('purge_warned_at', 'is', null).executeTakeFirst();
          if (Number(r.numUpdatedRows) === 1) {
            await deps.mailer.send({ to: u.email, ...purgeWarningMail(purgeAt) }).catch((e) => console.error('freeze: purge warning mail failed', u.id, e));
            warned++;
          }
        }
      }
      return { refreshed, warned, purged };
    },

    /** Deletes the user's frozen files for good, one by one through the drive's delete (a converting one stays for the next run). */
    async purgeFrozenFiles(uid: string) {
      const rows = await deps.db.selectFrom('items').select('id').where('uid', '=', uid).where('kind', '=', 1).where('freeze', '=', 1).execute();
      let n = 0;
      for (const r of rows) {
        try {
          await files.delete({ id: uid, freeze: 1 }, { deleteLevel: 1, fileIds: [r.id], folderIds: [] });
          n++;
        } catch (e) {
          console.error('freeze: purge of a frozen file failed', uid, r.id, e);
        }
      }
      return n;
    },
  };
  return service;
}

export type FreezeService = ReturnType<typeof createFreezeService>;
