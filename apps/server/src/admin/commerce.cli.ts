import type { AppDeps } from '../app.deps.ts';
import { AppError } from '../infra/http/app-error.ts';
import { createAdsService } from '../modules/ads/ads.service.ts';
import { createExchangeCodesService } from '../modules/exchange-codes/exchange-codes.service.ts';

/** A wrong or missing argument of `code …` / `ad …`: its message on stderr, exit 1. */
export class CommerceUsageError extends Error {}

const wholeNumber = (v: string | undefined, flag: string, min: number, max: number, dflt?: number): number => {
  if (v === undefined && dflt !== undefined) return dflt;
  const n = Number(v);
  if (v === undefined || !Number.isInteger(n) || n < min || n > max) throw new CommerceUsageError(`--${flag} must be a whole number ${min}-${max}`);
  return n;
};

/** The operator's exchange codes and ad slots (issue 22 parts 4 and 6): `npm run admin -- code …` and `ad …`. */
export async function runCommerceAdmin(area: 'code' | 'ad', action: string | undefined, deps: Pick<AppDeps, 'db' | 'config'>, values: Record<string, string | boolean | undefined>, positionals: string[]): Promise<unknown> {
  const v = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  const need = (k: string) => v(k) ?? (() => { throw new CommerceUsageError(`missing --${k}`); })();
  if (area === 'code') {
    const codes = createExchangeCodesService(deps);
    if (action === 'create') {
      try {
        return await codes.createBatch({ planCode: need('plan'), count: wholeNumber(v('count'), 'count', 1, 10_000), periods: wholeNumber(v('periods'), 'periods', 1, 120, 1), expiresInDays: v('expires') === undefined ? undefined : wholeNumber(v('expires'), 'expires', 1, 3660), orderId: v('order') });
      } catch (e) {
        if (e instanceof AppError && e.code === 'membership.unknownPlan') throw new CommerceUsageError(`no plan ${v('plan')} (npm run admin -- plan list)`);
        throw e;
      }
    }
    if (action === 'void') {
      const code = positionals[0] ?? (() => { throw new CommerceUsageError('missing the code: npm run admin -- code void XXXX-XXXX-XXXX-XXXX'); })();
      if (!(await codes.voidCode(code))) throw new CommerceUsageError('no unused code like that: unknown, already exchanged or void');
      return { voided: true };
    }
    if (action === 'list') return v('batch') ? await codes.listBatch(v('batch')!) : await codes.batches();
  }
  if (area === 'ad') {
    const ads = createAdsService(deps);
    if (action === 'set') {
      try {
        return await ads.set({ slot: need('slot'), imageUrl: need('image'), linkUrl: need('link'), title: need('title') });
      } catch (e) {
        if (e instanceof CommerceUsageError) throw e;
        throw new CommerceUsageError((e as Error).message);
      }
    }
    if (action === 'list') return await ads.list();
    if (action === 'remove') {
      if (!(await ads.remove(need('slot')))) throw new CommerceUsageError(`no ad slot ${v('slot')}`);
      return { removed: v('slot') };
    }
  }
  throw new CommerceUsageError(`usage: npm run admin -- code create|void|list …, ad set|list|remove … (npm run admin -- help)`);
}
