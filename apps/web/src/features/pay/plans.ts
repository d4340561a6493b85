import type { PlanInfo } from '@cadcloud/contracts';

/** What the pay dialog sells: memberships (premium, super) or cloud-disk expansion. */
export type PayKind = 'account' | 'storage';

export function planKindOf(plan: PlanInfo): PayKind | null {
  if (plan.kind === 'premium' || plan.kind === 'super') return 'account';
  if (plan.kind === 'storage') return 'storage';
  return null;
}

/**
 * The dialog's first choice: the account type (premium, super) for memberships, the size for storage. Plans of one
 * type differ by duration; of two plans with the same type and duration (ML1 and the auto-renewing ML4) the first in
 * the catalog is sold here.
 */
export function typeKeyOf(plan: PlanInfo): string {
  return plan.kind === 'storage' ? plan.code : plan.kind;
}

export function sellable(plans: PlanInfo[], kind: PayKind): PlanInfo[] {
  const seen = new Set<string>();
  return plans.filter((p) => {
    if (!p.price || planKindOf(p) !== kind) return false;
    const key = `${typeKeyOf(p)}/${p.durationDays}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** i18n key and options of a period: 30 days is a month, 365 a year. */
export function durationLabel(days: number): [string, Record<string, unknown>?] {
  if (days === 30) return ['duration.month'];
  if (days === 365) return ['duration.year'];
  return ['duration.days', { days }];
}

export function perPeriodLabel(days: number): [string, Record<string, unknown>?] {
  if (days === 30) return ['upgrade.perMonth'];
  if (days === 365) return ['upgrade.perYear'];
  return ['upgrade.perDays', { days }];
}

/**
 * The same payment page in the other layout (/yun/order ↔ /webH5/order, /upgrade ↔ /webH5/upgrade,
 * /secure/products ↔ /webH5/products …, with the query), so a link opened on the "wrong" device keeps its place.
 */
const PAIRS: [string, string][] = [['/yun/order', '/webH5/order'], ['/yun/coupon', '/webH5/coupon'], ['/yun/freeze', '/webH5/freeze'], ['/upgrade', '/webH5/upgrade'], ['/secure/products', '/webH5/products']];
export function payPathIn(layout: '/yun' | '/webH5', pathAndQuery: string): string | null {
  const [path, query = ''] = pathAndQuery.split(/(?=\?)/);
  for (const [desk, phone] of PAIRS) {
    if (path === desk || path === phone) return (layout === '/yun' ? desk : phone) + query;
  }
  return null;
}

export function payBase(pathname: string): { order: string; coupon: string; upgrade: string; products: string; freeze: string } {
  const phone = pathname.startsWith('/webH5');
  return phone
    ? { order: '/webH5/order', coupon: '/webH5/coupon', upgrade: '/webH5/upgrade', products: '/webH5/products', freeze: '/webH5/freeze' }
    : { order: '/yun/order', coupon: '/yun/coupon', upgrade: '/upgrade', products: '/secure/products', freeze: '/yun/freeze' };
}
