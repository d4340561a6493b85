import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_PATHS as P } from '@cadcloud/contracts';
import { testDatabaseDrivers } from '../../infra/db/test-databases.ts';
import { createTestApp, type TestApp } from '../../test/fixtures.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createAdsService } from './ads.service.ts';

for (const driver of testDatabaseDrivers()) {
  describe(`ads on ${driver.name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(driver);
    });
    afterAll(async () => t?.close());
    const get = async (token?: string, slot?: string) => {
      const q = new URLSearchParams({ ...(token ? { utoken: token } : {}), ...(slot ? { slot } : {}) });
      return (await t.app.inject({ method: 'GET', url: `${P.adver}?${q}` })).json().bizData;
    };

    it('none by default; a configured ad reaches free users and visitors, never a member whose rights remove ads', async () => {
      const free = await t.createUser();
      const member = await t.createUser();
      await createMembershipService(t.deps).grant(member.id, 'ML1', { source: 'admin', sourceId: `ads-${member.id}` });
      expect((await t.call(P.adver, {}, free.token)).bizData).toEqual({ ads: [] });

      const ads = createAdsService(t.deps);
      const ad = { slot: 'home-banner', imageUrl: 'https://ads.example/banner.png', linkUrl: 'https://ads.example/', title: 'Banner' };
      await ads.set(ad);
      await ads.set({ ...ad, slot: 'side', title: 'Side' });
      expect((await t.call(P.adver, {}, free.token)).bizData.ads).toEqual([ad, { ...ad, slot: 'side', title: 'Side' }]);
      expect((await t.call(P.adver, { slot: 'home-banner' }, free.token)).bizData.ads).toEqual([ad]);
      expect(await get(free.token, 'home-banner')).toEqual({ ads: [ad] });
      expect((await get(undefined, 'side')).ads.map((a: { title: string }) => a.title)).toEqual(['Side']);
      expect((await t.call(P.adver, {})).bizData.ads).toHaveLength(2);
      // the member sees none, by POST or GET
      expect((await t.call(P.adver, {}, member.token)).bizData).toEqual({ ads: [] });
      expect(await get(member.token)).toEqual({ ads: [] });

      expect(await ads.remove('side')).toBe(true);
      expect(await ads.remove('side')).toBe(false);
      expect((await t.call(P.adver, {}, free.token)).bizData.ads).toEqual([ad]);
      await expect(ads.set({ ...ad, linkUrl: 'javascript:alert(1)' })).rejects.toThrow(/http/);
    });

    it('the OpenAPI document has every endpoint of issue 22 parts 4–6', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
      expect(Object.keys(doc.paths[P.adver]).sort()).toEqual(['get', 'post']);
      for (const p of [P.exchange, P.exchangeList, P.freeUnfreeze, P.freezeState]) expect(doc.paths[p]?.post, p).toBeTruthy();
      expect(doc.paths[P.freeUnfreezeConfirm]?.get).toBeTruthy();
      expect(JSON.stringify(doc.paths[P.exchange])).toContain('exchange.empty');
    });
  });
}
