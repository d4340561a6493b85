import { createHash, randomInt } from 'node:crypto';
import { EXCHANGE_CODE_ALPHABET, EXCHANGE_CODE_LENGTH, ExchangeCodeStatus, type ExchangeCodeStatusCode } from '@cadcloud/contracts';
import type { AppDeps } from '../../app.deps.ts';
import { newId } from '../../infra/db/ids.ts';
import { serializedTransaction } from '../../infra/db/serialized-transaction.ts';
import { appError } from '../../infra/http/app-error.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createExchangeCodesRepository, type ExchangeCodeRow } from './exchange-codes.repository.ts';

const DAY = 86_400_000;
const VALID = new RegExp(`^[${EXCHANGE_CODE_ALPHABET}]{${EXCHANGE_CODE_LENGTH}}$`);

/** What a user types, as it was generated: case, spaces and dashes do not matter. */
export function normalizeCode(raw: string): string {
  return raw.replace(/[\s-]/g, '').toUpperCase();
}

/** Only this is stored: 16 characters of a 31-letter alphabet are ~79 random bits, too many to try them all. */
export function hashCode(normalized: string): string {
  return createHash('sha256').update(`exchange-code:${normalized}`).digest('hex');
}

/** 16 crypto-random characters without look-alikes (no 0/O/1/I/L), grouped XXXX-XXXX-XXXX-XXXX. */
export function generateCode(): string {
  let s = '';
  for (let i = 0; i < EXCHANGE_CODE_LENGTH; i++) s += EXCHANGE_CODE_ALPHABET[randomInt(EXCHANGE_CODE_ALPHABET.length)];
  return s.match(/.{4}/g)!.join('-');
}

/** The stored hash cannot give the code back: only its last 4 characters are shown. */
export const maskCode = (last4: string) => `****-****-****-${last4}`;

/** Status as the user sees it: an unused code past its expiry shows as expired (2) without a write. */
export function statusAt(row: Pick<ExchangeCodeRow, 'status' | 'expires_at'>, now: number): ExchangeCodeStatusCode {
  if (row.status === ExchangeCodeStatus.NOT_USED && row.expires_at != null && row.expires_at <= now) return ExchangeCodeStatus.EXPIRED;
  return row.status as ExchangeCodeStatusCode;
}

/**
 * Exchange codes (issue 22 part 4; spec section 4 states not used / exchanged / expired / void). The operator
 * generates batches; a user redeems a code once: the code is marked exchanged and the plan granted in one
 * transaction, so a crash leaves both or neither, and of any number of simultaneous redeemers exactly one wins.
 */
export function createExchangeCodesService(deps: Pick<AppDeps, 'db' | 'config'>, clock: () => number = Date.now) {
  const repo = createExchangeCodesRepository(deps.db);
  const membership = createMembershipService(deps);

  return {
    /** A batch of `count` new codes for a plan; the codes are answered this once and never again. */
    async createBatch(o: { planCode: string; count: number; periods?: number; expiresInDays?: number; orderId?: string }) {
      const now = clock();
      if (!(await membership.catalog()).some((p) => p.code === o.planCode)) throw appError('membership.unknownPlan');
      const batchId = newId();
      const codes = Array.from({ length: o.count }, generateCode);
      const expiresAt = o.expiresInDays ? now + o.expiresInDays * DAY : null;
      await repo.insertMany(codes.map((code) => {
        const n = normalizeCode(code);
        return { id: newId(), code_hash: hashCode(n), last4: n.slice(-4), batch_id: batchId, plan_code: o.planCode, periods: o.periods ?? 1, status: ExchangeCodeStatus.NOT_USED, expires_at: expiresAt, redeemed_by: null, redeemed_at: null, order_id: o.orderId ?? null, created_at: now };
      }));
      return { batchId, planCode: o.planCode, periods: o.periods ?? 1, expiresAt, codes };
    },

    /**
     * Redeems a code for `uid`. Serialised per code (every process); the conditional update from status 0 and the
     * entitlement's unique (source 'code', code id) make a second success impossible even without the lock.
     */
    async redeem(uid: string, raw: string) {
      const code = normalizeCode(raw);
      if (!code) throw appError('exchange.empty');
      if (!VALID.test(code)) throw appError('exchange.unknown');
      const hash = hashCode(code);
      return serializedTransaction(deps.db, `exchange-code:${hash}`, async (t) => {
        const now = clock();
        const row = await repo.byHash(hash, t);
        if (!row) throw appError('exchange.unknown');
        const status = statusAt(row, now);
        if (status === ExchangeCodeStatus.VOID) throw appError('exchange.void');
        if (status === ExchangeCodeStatus.EXCHANGED) throw appError('exchange.used');
        if (status === ExchangeCodeStatus.EXPIRED) throw appError('exchange.expired');
        if (!(await repo.markExchanged(row.id, uid, now, t))) throw appError('exchange.used');
        const g = await membership.grant(uid, row.plan_code, { source: 'code', sourceId: row.id, trx: t, now, periods: row.periods });
        if (!g.granted) throw appError('exchange.used');
        return { planCode: row.plan_code, startsAt: g.entitlement.starts_at, endsAt: g.entitlement.ends_at };
      });
    },

    /** The caller's redeemed codes, newest first (the coupon page). */
    async redeemedBy(uid: string, o: { pageNo: number; pageSize: number }) {
      const { total, rows } = await repo.redeemedBy(uid, { offset: (o.pageNo - 1) * o.pageSize, limit: o.pageSize });
      const now = clock();
      return { total, list: rows.map((r) => ({ code: maskCode(r.last4), planCode: r.plan_code, periods: r.periods, status: statusAt(r, now), redeemedAt: r.redeemed_at })) };
    },

    /** The codes an order produced, for the order's detail (spec section 3: index, code, status). */
    async exchangeCodeRecordsOf(orderId: string) {
      const now = clock();
      return (await repo.ofOrder(orderId)).map((r, i) => ({ index: i + 1, code: maskCode(r.last4), status: statusAt(r, now) }));
    },

    /** The operator voids an unused code; false when it is unknown or no longer unused. */
    async voidCode(raw: string) {
      return repo.markVoid(hashCode(normalizeCode(raw)));
    },

    async listBatch(batchId: string) {
      const now = clock();
      return (await repo.ofBatch(batchId)).map((r) => ({ code: maskCode(r.last4), planCode: r.plan_code, periods: r.periods, status: statusAt(r, now), expiresAt: r.expires_at, redeemedBy: r.redeemed_by, redeemedAt: r.redeemed_at }));
    },

    batches: () => repo.batches(),
  };
}

export type ExchangeCodesService = ReturnType<typeof createExchangeCodesService>;
