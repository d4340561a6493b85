import type { AppDeps } from '../../app.deps.ts';

export interface UserCompany {
  id: string;
  name: string;
  /** the member's role in the company (e.g. admin, member) */
  role: string;
}

/**
 * The company a user belongs to, or null. Companies and their members are built by the company-members part of
 * issue 23; until that lands there is no companies table and every user belongs to none. Wire this function to the
 * companies service then: getCompanyInfoByToken (companies.routes.ts) and its tests already go through it.
 */
export async function companyOfUser(_deps: Pick<AppDeps, 'db'>, _uid: string): Promise<UserCompany | null> {
  return null;
}
