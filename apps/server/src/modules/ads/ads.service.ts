import type { AppDeps } from '../../app.deps.ts';
import { createMembershipService } from '../membership/membership.service.ts';
import { createAdsRepository } from './ads.repository.ts';

/** Only web links: an operator's typo must not put a javascript: URL into every free user's page. */
const WEB_URL = /^https?:\/\/[^\s]+$/i;

/**
 * Ads (issue 22 part 6): slots the operator manages (`npm run admin -- ad set`), none by default; nobody whose rights
 * remove ads (premium members, spec section 6) is shown any.
 */
export function createAdsService(deps: Pick<AppDeps, 'db' | 'config'>) {
  const repo = createAdsRepository(deps.db);
  const membership = createMembershipService(deps);
  const present = (r: { slot: string; image_url: string; link_url: string; title: string }) => ({ slot: r.slot, imageUrl: r.image_url, linkUrl: r.link_url, title: r.title });
  return {
    /** The ads for a viewer (null: not signed in), of one slot or all. */
    async adsFor(uid: string | null, slot?: string) {
      if (uid && (await membership.may(uid, 'adFree'))) return { ads: [] };
      return { ads: (await repo.list(slot)).map(present) };
    },
    async set(o: { slot: string; imageUrl: string; linkUrl: string; title: string }) {
      if (!o.slot.trim() || o.slot.length > 64) throw new Error('the slot name must be 1-64 characters');
      for (const u of [o.imageUrl, o.linkUrl]) if (!WEB_URL.test(u)) throw new Error(`not an http(s) URL: ${u}`);
      await repo.upsert({ slot: o.slot.trim(), image_url: o.imageUrl, link_url: o.linkUrl, title: o.title, updated_at: Date.now() });
      return present({ slot: o.slot.trim(), image_url: o.imageUrl, link_url: o.linkUrl, title: o.title });
    },
    remove: (slot: string) => repo.remove(slot),
    list: async () => (await repo.list()).map(present),
  };
}
