import type { Currency, PlanKind, Right } from '@cadcloud/contracts';

const GB = 1024 ** 3;
const DAY = 86_400_000;

/** One version of a plan, as stored (membership_plans.definition). */
export interface PlanDefinition {
  kind: PlanKind;
  durationDays: number;
  /** bytes added to the account's base storage while an entitlement of this plan is active */
  storageBytes: number;
  rights: Right[];
  /** price of one period per currency; a currency missing here is not sold in */
  prices: Partial<Record<Currency, number>>;
  /** false: the user-state answer never warns that it is about to end */
  expiryWarning: boolean;
  /** the registration trial's length by language (key 'default' for the rest); only on the trial plan */
  trialDaysByLanguage?: Record<string, number>;
}

export interface Plan extends PlanDefinition {
  code: string;
  version: number;
}

/** Spec section 6: premium raises groups, annotation, the viewer's dimension/measure/layer tools, conversion, no ads. */
const PREMIUM_RIGHTS: Right[] = ['groups', 'annotation', 'viewerTools', 'conversion', 'adFree', 'unzip'];
/** The super membership is premium plus 3D conversion (spec sections 1 and 6). */
const SUPER_RIGHTS: Right[] = [...PREMIUM_RIGHTS, 'model3d'];

/** The membership level (users' vipType) each kind stands for; storage plans give none. */
export const VIP_LEVEL_OF_KIND: Record<PlanKind, number> = { premium: 1, trial: 1, super: 2, storage: 0 };
/** Kinds whose end is "the membership's end" (vipInfo.serverEndTimeStamp, the expiry warning). */
export const MEMBERSHIP_KINDS: readonly PlanKind[] = ['premium', 'super', 'trial'];

/** Rights of users.vip_type, the level an operator set before entitlements existed (read as a floor, see rights.ts). */
export function rightsOfLevel(level: number): Right[] {
  return level >= 2 ? SUPER_RIGHTS : level >= 1 ? PREMIUM_RIGHTS : [];
}

/**
 * The default catalog (issue 22 part 1), written to membership_plans as version 1 of each code the table lacks.
 * Prices from spec section 9: USD 4.99 a month and 47.99 a year, CNY 15 and 158, KRW 1730 a month of storage
 * expansion. Everything else here is OUR default, the spec being silent, and an operator changes it with
 * `npm run admin -- plan set`: the KRW and EUR premium prices (about the USD ones), the super membership and its
 * prices, the storage expansions' sizes and their non-KRW prices. "Premium includes 5G cloud storage" (section 1) is
 * read as 5 GB added to the account's base storage.
 */
export const DEFAULT_CATALOG: Record<string, PlanDefinition> = {
  // premium monthly
  ML1: { kind: 'premium', durationDays: 30, storageBytes: 5 * GB, rights: PREMIUM_RIGHTS, expiryWarning: true, prices: { USD: 4.99, CNY: 15, KRW: 6500, EUR: 4.99 } },
  // premium yearly
  ML2: { kind: 'premium', durationDays: 365, storageBytes: 5 * GB, rights: PREMIUM_RIGHTS, expiryWarning: true, prices: { USD: 47.99, CNY: 158, KRW: 62000, EUR: 47.99 } },
  // super membership, monthly (3D conversion); prices are ours
  ML3: { kind: 'super', durationDays: 30, storageBytes: 5 * GB, rights: SUPER_RIGHTS, expiryWarning: true, prices: { USD: 9.99, CNY: 30, KRW: 13000, EUR: 9.99 } },
  /**
   * ML4, the one plan the spec exempts from the expiry warning (section 6), is read as the auto-renewing monthly
   * premium subscription: the order types include "first/auto order", and a membership the provider renews by itself
   * has nothing to warn about. Until the orders part renews it, it behaves as ML1 without the warning.
   */
  ML4: { kind: 'premium', durationDays: 30, storageBytes: 5 * GB, rights: PREMIUM_RIGHTS, expiryWarning: false, prices: { USD: 4.99, CNY: 15, KRW: 6500, EUR: 4.99 } },
  // storage expansion: the spec's KRW 1730 a month; the size (10 GB) and the other prices are ours
  SE10: { kind: 'storage', durationDays: 30, storageBytes: 10 * GB, rights: [], expiryWarning: true, prices: { KRW: 1730, USD: 1.49, CNY: 10, EUR: 1.49 } },
  SE50: { kind: 'storage', durationDays: 30, storageBytes: 50 * GB, rights: [], expiryWarning: true, prices: { KRW: 6900, USD: 5.99, CNY: 40, EUR: 5.99 } },
  /**
   * The registration trial (spec section 1): premium rights without ad removal and without storage, once per account.
   * Its length: the spec's English text says 30 days and its Chinese text 7; both are kept, by the language the user
   * starts it in. Not sold (no price).
   */
  TRIAL: { kind: 'trial', durationDays: 30, storageBytes: 0, rights: PREMIUM_RIGHTS.filter((r) => r !== 'adFree'), expiryWarning: true, prices: {}, trialDaysByLanguage: { zh: 7, default: 30 } },
};

export const TRIAL_PLAN = 'TRIAL';

/** A period's end: the same time of day `days` later (fixed days, no calendar months, so every boundary is exact). */
export function periodEnd(start: number, days: number): number {
  return start + days * DAY;
}

/** The trial's length for a language ('zh-CN' counts as zh). */
export function trialDays(plan: PlanDefinition, language: string): number {
  const by = plan.trialDaysByLanguage;
  if (!by) return plan.durationDays;
  return by[language.slice(0, 2).toLowerCase()] ?? by.default ?? plan.durationDays;
}
