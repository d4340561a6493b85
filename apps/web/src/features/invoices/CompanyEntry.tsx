import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { invoicesApi, type CompanyInfo } from './api.ts';

/**
 * The account center's company line (issue 23: a member sees their company): the company's name and role, or the
 * invoice area's name for someone in none; either leads to /invoice/index. Fetched when shown (the user menu opens).
 */
export function CompanyEntry() {
  const { t } = useTranslation('invoices');
  const [company, setCompany] = useState<CompanyInfo | null>(null);
  useEffect(() => {
    let live = true;
    invoicesApi.company().then((r) => live && setCompany(r.company), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return (
    <Link to="/invoice/index" data-testid="account-company">
      {company ? `${company.companyName} · ${t(`company.role.${company.role}`)}` : t('nav.index')}
    </Link>
  );
}
