import { z } from 'zod';
import * as c from '@cadcloud/contracts';
import { requestLanguage } from '../../infra/http/error-handler.ts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { createMembershipService } from './membership.service.ts';

/** Membership (issue 22 parts 1–2): the catalog on sale and the registration trial. Orders and codes come later. */
export const membershipRoutes: RouteModule = async (app, { deps }) => {
  const membership = createMembershipService(deps);
  // the default catalog is in the database before any request (and before an order grants in its transaction)
  await membership.ensureCatalog();
  const tag = 'membership';
  const P = c.MEMBERSHIP_PATHS;

  defineEndpoint(app, {
    path: P.planList, tag, auth: 'none',
    summary: "The plans on sale (premium monthly ML1 and yearly ML2, super membership ML3, auto-renewing premium ML4, storage expansions SE10/SE50): each plan's current catalog version, duration, storage added, rights, and its price in the requested currency, else the request language's (zh CNY, en USD, ko KRW, de EUR); price null where the plan is not sold in that currency",
    request: c.planListRequest, response: c.planListResult,
    handler: async (d, { req }) => ({ plans: await membership.listPlans({ currency: d.currency, language: requestLanguage(req), onSale: true }) }),
  });
  defineEndpoint(app, {
    path: P.trialStart, tag, auth: 'user',
    summary: "Starts the caller's registration trial (spec section 1): premium rights without ad removal and without extra storage, 7 days when asked in Chinese, 30 days otherwise; once per account (membership.trialUsed the second time)",
    request: z.object({}).passthrough(), response: c.trialStartResult,
    handler: (_d, { user, req }) => membership.startTrial(user.id, requestLanguage(req)),
  });
};
