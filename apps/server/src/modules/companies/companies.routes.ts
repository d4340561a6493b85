import { z } from 'zod';
import { companyInfoResult } from '@cadcloud/contracts';
import { defineEndpoint } from '../../infra/http/endpoint.ts';
import type { RouteModule } from '../index.ts';
import { companyOfUser } from './company-of-user.ts';

export const companiesRoutes: RouteModule = async (app, { deps }) => {
  defineEndpoint(app, {
    path: '/company/v5/member/getCompanyInfoByToken', tag: 'companies', auth: 'user', formStyle: true,
    summary: "The signed-in user's company (id, name, role) or {company: null} when they belong to none",
    request: z.object({}).passthrough(), response: companyInfoResult,
    handler: async (_d, { user }) => ({ company: await companyOfUser(deps, user.id) }),
  });
};
