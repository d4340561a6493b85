/**
 * Spec section 3's currentCompanyHeader: the company header (invoice title) the member last chose, kept in browser
 * storage with the login it was chosen under: `utoken` (a fingerprint of the login cookie ticket, from
 * getCompanyInfoByToken: the ticket itself is httpOnly and never reaches the page) and the client type. Read back only
 * under the same ticket and client type; otherwise the saved header is discarded, so after a sign-out, another account's
 * sign-in or a switch between desktop and phone layout nobody sees a header chosen in another session.
 */
export const COMPANY_HEADER_KEY = 'cadcloud.invoice.currentCompanyHeader';

export interface CompanyHeader {
  companyName: string;
  titleId: string;
  utoken: string;
  clientType: string;
}

export interface HeaderLogin {
  utoken: string | null;
  clientType: string;
}

export function saveCompanyHeader(h: CompanyHeader, storage: Storage = localStorage) {
  storage.setItem(COMPANY_HEADER_KEY, JSON.stringify(h));
}

export function clearCompanyHeader(storage: Storage = localStorage) {
  storage.removeItem(COMPANY_HEADER_KEY);
}

/** The saved header if it was saved under this ticket and client type; else it is removed and null returned. */
export function loadCompanyHeader(login: HeaderLogin, storage: Storage = localStorage): CompanyHeader | null {
  const raw = storage.getItem(COMPANY_HEADER_KEY);
  if (!raw) return null;
  let h: Partial<CompanyHeader> | null = null;
  try {
    h = JSON.parse(raw);
  } catch {
    h = null;
  }
  if (!h || typeof h.companyName !== 'string' || typeof h.titleId !== 'string' || !login.utoken || h.utoken !== login.utoken || h.clientType !== login.clientType) {
    storage.removeItem(COMPANY_HEADER_KEY);
    return null;
  }
  return h as CompanyHeader;
}
