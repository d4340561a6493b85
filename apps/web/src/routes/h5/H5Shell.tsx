import { useEffect } from 'react';
import { HomeOutlined, CloudOutlined, CloudUploadOutlined, UserOutlined } from '@ant-design/icons';
import { TeamOutlined } from '@ant-design/icons';
import { groupPathIn } from '../../features/groups/paths.ts';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { isPhone } from '../../lib/device.ts';
import { payPathIn } from '../../features/pay/plans.ts';
import { FreezeBanner } from '../../features/pay/Freeze.tsx';

/** /webH5/info pages that have a desktop counterpart. */
const DESKTOP_PAGES: Record<string, string> = {
  '/webH5/info/feedback': '/feedback',
  '/webH5/info/publicplatform': '/yun/public',
  '/webH5/threeModel': '/yun/threeModel',
};

/** Mobile layout: content above a bottom tab bar (home, cloud, group, upload, user). */
export function H5Shell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tabs = [
    { id: 'home', path: '/webH5', icon: <HomeOutlined />, label: t('nav.home') },
    { id: 'cloud', path: '/webH5/cloud', icon: <CloudOutlined />, label: t('nav.cloud') },
    { id: 'group', path: '/webH5/group', icon: <TeamOutlined />, label: t('groups.nav', { ns: 'groups' }) },
    { id: 'upload', path: '/webH5/upload', icon: <CloudUploadOutlined />, label: t('nav.upload') },
    { id: 'user', path: '/webH5/user', icon: <UserOutlined />, label: t('nav.user') },
  ];
  // a desktop browser that opened a phone link goes to the desktop layout (the same page where it has one)
  useEffect(() => {
    if (!isPhone() && !sessionStorage.getItem('cadcloud.forceMobile')) navigate(groupPathIn('/yun', pathname + window.location.search) ?? payPathIn('/yun', pathname + window.location.search) ?? DESKTOP_PAGES[pathname] ?? '/yun/recent', { replace: true });
  }, []);
  // a file's detail page belongs to the cloud tab
  const current = pathname.startsWith('/webH5/item/') ? '/webH5/cloud' : pathname;
  const active = tabs.slice().reverse().find((tab) => current === tab.path || current.startsWith(`${tab.path}/`))?.path ?? '/webH5';
  return (
    <div className="h5">
      <div className="h5-content">
        <FreezeBanner />
        <Outlet />
      </div>
      <nav className="h5-tabs" data-testid="h5-tabs">
        {tabs.map((tab) => (
          <button key={tab.path} data-testid={`h5-tab-${tab.id}`} className={active === tab.path ? 'active' : ''} onClick={() => navigate(tab.path)}>
            {tab.icon}
            <span>{tab.label}</span>
          </button>
        ))}
      </nav>
    </div>
  );
}
