import { z } from 'zod';

/**
 * Membership (issue 22 parts 1 and 2; spec sections 1, 3, 6, 9): the plan catalog, the rights a membership gives and
 * the user-state answer's membership fields. The server decides every right (modules/membership rights.ts); the web
 * app only reads `rights` to show or hide what the server would refuse anyway.
 */
export const MEMBERSHIP_PATHS = {
  planList: '/order/v5/plan/list',
  trialStart: '/order/v5/trial/start',
} as const;

/**
 * The gated rights of spec section 6 (premium: groups, annotation, dimension/measure/layer tools, conversion, ad
 * removal; super: 3D conversion) and decompression, which issue 18 lets an operator keep for members. Storage is not
 * a switch but a number of bytes (`storageBytes`).
 */
export const RIGHTS = ['groups', 'annotation', 'viewerTools', 'conversion', 'model3d', 'adFree', 'unzip'] as const;
export type Right = (typeof RIGHTS)[number];

/** What a plan is: a membership level, the registration trial, or storage only. */
export const PLAN_KINDS = ['premium', 'super', 'trial', 'storage'] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

/** The spec's currencies (section 9: CNY, USD; the Korean storage price in KRW) and EUR for the German locale. */
export const CURRENCIES = ['CNY', 'USD', 'KRW', 'EUR'] as const;
export type Currency = (typeof CURRENCIES)[number];
/** The currency a language's visitors see (the spec shows yuan to zh, dollars to en, won to ko). */
export const CURRENCY_OF_LANGUAGE: Record<string, Currency> = { zh: 'CNY', en: 'USD', ko: 'KRW', de: 'EUR' };

/** Spec section 6: others are warned when the end time is within 7 days (604800000 ms). */
export const EXPIRY_WARNING_MS = 604_800_000;

export const planSchema = z.object({
  code: z.string().describe('goods code, e.g. ML1'),
  version: z.number().describe('the catalog version of this plan; an entitlement keeps the version it was granted with'),
  kind: z.enum(PLAN_KINDS),
  durationDays: z.number().describe('length of one period in days'),
  storageBytes: z.number().describe('storage this plan adds to the account while active'),
  rights: z.array(z.enum(RIGHTS)),
  /** false for ML4: no expiry warning (spec section 6) */
  expiryWarning: z.boolean(),
  price: z.object({ currency: z.enum(CURRENCIES), amount: z.number() }).nullable().describe("in the caller's language's currency; null when not sold (the trial)"),
});
export type PlanInfo = z.infer<typeof planSchema>;

export const planListRequest = z.object({ currency: z.enum(CURRENCIES).optional().describe("defaults to the request language's currency") });
export const planListResult = z.object({ plans: z.array(planSchema) });

export const rightsSchema = z.object(Object.fromEntries(RIGHTS.map((r) => [r, z.boolean()])) as Record<Right, z.ZodBoolean>);
export type Rights = z.infer<typeof rightsSchema>;

/** The user-state answer's membership part (spec section 3: vipInfo goodsCodes, serverEndTimeStamp). */
export const membershipStateSchema = z.object({
  vipType: z.number().describe('0 free, 1 premium (or trial), 2 super; from the active entitlements'),
  vipInfo: z.object({
    goodsCodes: z.array(z.string()).describe('plan codes of the active entitlements'),
    serverEndTimeStamp: z.number().describe('when the membership (premium, super or trial) ends, epoch ms; 0 without one'),
  }),
  expiryWarning: z.boolean().describe('the membership ends within 7 days (never for ML4)'),
  trialAvailable: z.boolean().describe('offer the registration trial: not used yet and no paid membership running'),
  rights: rightsSchema,
});
export type MembershipState = z.infer<typeof membershipStateSchema>;

export const trialStartResult = z.object({ code: z.string(), startsAt: z.number(), endsAt: z.number() });
