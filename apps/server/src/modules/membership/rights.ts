import { EXPIRY_WARNING_MS, RIGHTS, type MembershipState, type Right, type Rights } from '@cadcloud/contracts';
import { MEMBERSHIP_KINDS, VIP_LEVEL_OF_KIND, rightsOfLevel, type Plan } from './membership.catalog.ts';
import type { EntitlementRow } from './entitlements.repository.ts';

/** What the rights model knows about a user at one instant: everything `rightsOf` answers. */
export interface UserRights extends MembershipState {
  /** base storage plus what the active entitlements add */
  storageBytes: number;
}

export interface RightsInput {
  /** users.vip_type: a level set by an operator before entitlements existed; read as a floor (never expires) */
  legacyLevel: number;
  baseStorage: number;
  /** the user's periods not ended at `now`, each with the plan version it was granted with */
  periods: { row: EntitlementRow; plan: Plan }[];
  /** rights the operator opened to everyone (RIGHTS_OPEN_TO_ALL, and unzip unless UNZIP_MEMBERS_ONLY) */
  openToAll: readonly Right[];
  trialUsed: boolean;
  now: number;
}

/**
 * The one answer to "may this user do X" (issue 22 part 2), pure so every boundary is tested with a given clock:
 * a period counts from starts_at (inclusive) to ends_at (exclusive).
 */
export function computeRights(i: RightsInput): UserRights {
  const active = i.periods.filter((p) => p.row.starts_at <= i.now && i.now < p.row.ends_at);
  const granted = new Set<Right>([...rightsOfLevel(i.legacyLevel), ...i.openToAll]);
  for (const p of active) for (const r of p.plan.rights) granted.add(r);
  const rights = Object.fromEntries(RIGHTS.map((r) => [r, granted.has(r)])) as Rights;
  const vipType = Math.max(i.legacyLevel, 0, ...active.map((p) => VIP_LEVEL_OF_KIND[p.plan.kind]));
  // the membership's end: the last end among running and stacked periods of a membership kind
  const memberships = i.periods.filter((p) => MEMBERSHIP_KINDS.includes(p.plan.kind));
  const last = memberships.reduce<(typeof memberships)[number] | undefined>((a, p) => (!a || p.row.ends_at > a.row.ends_at ? p : a), undefined);
  const end = last && active.some((p) => MEMBERSHIP_KINDS.includes(p.plan.kind)) ? last.row.ends_at : 0;
  return {
    vipType,
    vipInfo: { goodsCodes: [...new Set(active.map((p) => p.plan.code))], serverEndTimeStamp: end },
    // spec section 6: warned when the end is within 7 days, except a plan exempt from it (ML4)
    expiryWarning: !!last && end > 0 && end - i.now <= EXPIRY_WARNING_MS && last.plan.expiryWarning,
    // spec section 6: paying members skip the trial offer (the trial endpoint itself only enforces once per account)
    trialAvailable: !i.trialUsed && !active.some((p) => p.plan.kind === 'premium' || p.plan.kind === 'super'),
    rights,
    storageBytes: i.baseStorage + active.reduce((s, p) => s + p.row.storage_bytes, 0),
  };
}
