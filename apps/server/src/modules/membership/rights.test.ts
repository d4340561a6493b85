import { describe, expect, it } from 'vitest';
import { EXPIRY_WARNING_MS, RIGHTS } from '@cadcloud/contracts';
import { DEFAULT_CATALOG, TRIAL_PLAN, periodEnd, trialDays, type Plan } from './membership.catalog.ts';
import type { EntitlementRow } from './entitlements.repository.ts';
import { computeRights, type RightsInput } from './rights.ts';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 1);
const plan = (code: string): Plan => ({ ...DEFAULT_CATALOG[code], code, version: 1 });
const period = (code: string, starts: number, ends: number): { row: EntitlementRow; plan: Plan } => ({
  plan: plan(code),
  row: { id: `${code}-${starts}`, uid: 'u', plan_code: code, plan_version: 1, kind: DEFAULT_CATALOG[code].kind, storage_bytes: DEFAULT_CATALOG[code].storageBytes, starts_at: starts, ends_at: ends, source: 'admin', source_id: `${code}-${starts}`, created_at: starts },
});
const base: Omit<RightsInput, 'periods' | 'now'> = { legacyLevel: 0, baseStorage: 500, openToAll: [], trialUsed: false };
const at = (now: number, ...periods: ReturnType<typeof period>[]) => computeRights({ ...base, periods, now });

describe('rights (pure, injected clock)', () => {
  it('a period counts from its first millisecond to just before its end', () => {
    const p = period('ML1', T0, periodEnd(T0, 30));
    expect(at(T0 - 1, p)).toMatchObject({ vipType: 0, storageBytes: 500, vipInfo: { goodsCodes: [], serverEndTimeStamp: 0 } });
    expect(at(T0 - 1, p).rights.conversion).toBe(false);
    expect(at(T0, p)).toMatchObject({ vipType: 1, storageBytes: 500 + 5 * 1024 ** 3, vipInfo: { goodsCodes: ['ML1'], serverEndTimeStamp: T0 + 30 * DAY } });
    expect(at(T0, p).rights.conversion).toBe(true);
    expect(at(T0 + 30 * DAY - 1, p).vipType).toBe(1);
    expect(at(T0 + 30 * DAY, p)).toMatchObject({ vipType: 0, storageBytes: 500, vipInfo: { goodsCodes: [], serverEndTimeStamp: 0 } });
  });

  it('premium gives its rights without 3D; super adds 3D; a stacked renewal carries the end', () => {
    const premium = at(T0, period('ML1', T0, T0 + 30 * DAY)).rights;
    expect(premium).toEqual({ groups: true, annotation: true, viewerTools: true, conversion: true, model3d: false, adFree: true, unzip: true });
    expect(at(T0, period('ML3', T0, T0 + 30 * DAY))).toMatchObject({ vipType: 2, rights: { model3d: true } });
    const stacked = at(T0, period('ML1', T0, T0 + 30 * DAY), period('ML1', T0 + 30 * DAY, T0 + 60 * DAY));
    expect(stacked.vipInfo.serverEndTimeStamp).toBe(T0 + 60 * DAY);
    expect(stacked.expiryWarning).toBe(false);
  });

  it('the trial: premium rights but no ad removal and no storage; 7 days in Chinese, 30 otherwise', () => {
    const t = at(T0, period(TRIAL_PLAN, T0, T0 + 7 * DAY));
    expect(t).toMatchObject({ vipType: 1, storageBytes: 500, rights: { conversion: true, groups: true, adFree: false, model3d: false } });
    expect([trialDays(DEFAULT_CATALOG.TRIAL, 'zh'), trialDays(DEFAULT_CATALOG.TRIAL, 'zh-CN'), trialDays(DEFAULT_CATALOG.TRIAL, 'en'), trialDays(DEFAULT_CATALOG.TRIAL, 'de')]).toEqual([7, 7, 30, 30]);
    expect(computeRights({ ...base, periods: [], now: T0, trialUsed: true }).trialAvailable).toBe(false);
    expect(at(T0).trialAvailable).toBe(true);
    // paying members are not offered it; storage expansion alone does not count as paying for membership
    expect(at(T0, period('ML1', T0, T0 + DAY)).trialAvailable).toBe(false);
    expect(at(T0, period('SE10', T0, T0 + DAY)).trialAvailable).toBe(true);
  });

  it('warns when the end is within 7 days (604800000 ms), not a millisecond earlier; never for ML4', () => {
    const end = T0 + 30 * DAY;
    for (const code of ['ML1', 'ML2', 'ML3', TRIAL_PLAN]) {
      const p = period(code, T0, end);
      expect([code, at(end - EXPIRY_WARNING_MS - 1, p).expiryWarning]).toEqual([code, false]);
      expect([code, at(end - EXPIRY_WARNING_MS, p).expiryWarning]).toEqual([code, true]);
      expect([code, at(end - 1, p).expiryWarning]).toEqual([code, true]);
      expect([code, at(end, p).expiryWarning]).toEqual([code, false]);
    }
    const ml4 = period('ML4', T0, end);
    for (const now of [end - EXPIRY_WARNING_MS - 1, end - EXPIRY_WARNING_MS, end - DAY, end - 1]) expect(at(now, ml4).expiryWarning).toBe(false);
    // the membership that ends last decides: an ML1 ending soon under a running ML4 that lasts longer is no warning
    expect(at(end - DAY, period('ML1', T0, end), period('ML4', T0, end + 20 * DAY)).expiryWarning).toBe(false);
    // storage expansion is not a membership: no warning, no end stamp, no vip level
    expect(at(end - DAY, period('SE10', T0, end))).toMatchObject({ vipType: 0, expiryWarning: false, vipInfo: { goodsCodes: ['SE10'], serverEndTimeStamp: 0 } });
  });

  it("storage expansion adds storage only while active; rights the operator opens hold for everyone; the legacy level is a floor", () => {
    expect(at(T0, period('SE10', T0, T0 + DAY), period('SE50', T0, T0 + DAY)).storageBytes).toBe(500 + 60 * 1024 ** 3);
    expect(computeRights({ ...base, openToAll: [...RIGHTS], periods: [], now: T0 }).rights).toEqual(Object.fromEntries(RIGHTS.map((r) => [r, true])));
    expect(computeRights({ ...base, openToAll: ['conversion'], periods: [], now: T0 }).rights).toMatchObject({ conversion: true, groups: false, model3d: false });
    expect(computeRights({ ...base, legacyLevel: 2, periods: [], now: T0 })).toMatchObject({ vipType: 2, rights: { model3d: true, conversion: true } });
  });
});
