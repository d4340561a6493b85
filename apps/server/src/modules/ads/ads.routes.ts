import * as c from '@cadcloud/contracts';
import { defineEndpoint, ok } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createAdsService } from './ads.service.ts';

/** Ads (issue 22 part 6): GET (query ?slot=) and POST ({data: {slot}}) answer the same. */
export const adsRoutes: RouteModule = async (app, { deps }) => {
  const ads = createAdsService(deps);
  const summary = "The operator's ad slots (none by default; `npm run admin -- ad set`), all or one slot: {ads: [{slot, imageUrl, linkUrl, title}]}. Always empty for a signed-in user whose rights include adFree (premium members, spec section 6)";
  defineEndpoint(app, {
    path: c.ORDER_PATHS.adver, tag: 'ads', auth: 'optional', summary,
    request: c.adverRequest, response: c.adverResult,
    handler: (d, { user }) => ads.adsFor(user?.id ?? null, d.slot),
  });
  app.apiRegistry.push({ method: 'get', path: c.ORDER_PATHS.adver, summary, tag: 'ads', auth: 'optional', request: c.adverRequest, response: c.adverResult, envelope: 'style2' });
  app.get(c.ORDER_PATHS.adver, async (req) => {
    const d = c.adverRequest.parse(req.query ?? {});
    return ok(await ads.adsFor(req.user?.id ?? null, d.slot));
  });
};
