import { createContext, useCallback, useContext, useEffect, useState } from 'react';
import { NavLink, Outlet } from 'react-router';
import { Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { invoicesApi, type CompanyInfo } from '../../features/invoices/api.ts';
import { clearCompanyHeader, loadCompanyHeader, saveCompanyHeader, type CompanyHeader } from '../../features/invoices/company-header.ts';
import { clientType } from '../../lib/device.ts';
import './invoice.css';

/** Spec section 3's invoice state shared by the /invoice pages. */
export interface InvoiceState {
  loaded: boolean;
  company: CompanyInfo | null;
  /** the login ticket's fingerprint (getCompanyInfoByToken) */
  utoken: string | null;
  /** currentCompanyHeader: the saved title, dropped when the ticket or client type changed */
  header: CompanyHeader | null;
  chooseHeader(h: { companyName: string; titleId: string } | null): void;
  reload(): Promise<void>;
}

const Ctx = createContext<InvoiceState>({ loaded: false, company: null, utoken: null, header: null, chooseHeader: () => undefined, reload: async () => undefined });
export const useInvoiceState = () => useContext(Ctx);

const NAV = [
  ['index', 'nav.index'],
  ['create', 'nav.create'],
  ['title', 'nav.title'],
  ['record', 'nav.record'],
  ['book', 'nav.book'],
  ['notice', 'nav.notice'],
  ['lite-intro', 'nav.liteIntro'],
] as const;

/** /invoice: the company and saved header are fetched once here; the pages render below the navigation. */
export function InvoiceShell() {
  const { t } = useTranslation('invoices');
  const [state, setState] = useState<{ loaded: boolean; company: CompanyInfo | null; utoken: string | null; header: CompanyHeader | null }>({ loaded: false, company: null, utoken: null, header: null });
  const reload = useCallback(async () => {
    try {
      const { company, utoken } = await invoicesApi.company();
      setState({ loaded: true, company, utoken, header: loadCompanyHeader({ utoken, clientType: clientType() }) });
    } catch {
      setState((s) => ({ ...s, loaded: true }));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  const chooseHeader = useCallback(
    (h: { companyName: string; titleId: string } | null) => {
      setState((s) => {
        if (!h || !s.utoken) {
          clearCompanyHeader();
          return { ...s, header: null };
        }
        const header = { ...h, utoken: s.utoken, clientType: clientType() };
        saveCompanyHeader(header);
        return { ...s, header };
      });
    },
    [],
  );
  return (
    <Ctx.Provider value={{ ...state, chooseHeader, reload }}>
      <div className="invoice-shell">
        <header className="invoice-head">
          <nav className="invoice-nav">
            {NAV.map(([path, key]) => (
              <NavLink key={path} to={`/invoice/${path}`} className={({ isActive }) => (isActive ? 'active' : '')}>
                {t(key)}
              </NavLink>
            ))}
          </nav>
          {state.header && (
            <div className="invoice-header-right" data-testid="invoice-current-header">
              {t('header.current')}: <Tag color="blue">{state.header.companyName}</Tag>
              <Button size="small" type="link" onClick={() => chooseHeader(null)}>
                {t('header.clear')}
              </Button>
            </div>
          )}
        </header>
        <main className="invoice-main">
          <Outlet />
        </main>
      </div>
    </Ctx.Provider>
  );
}
