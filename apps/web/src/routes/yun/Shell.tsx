import { useEffect, useState } from 'react';
import { Layout, Menu, Dropdown, Button, Progress, Drawer, Avatar, Typography, Input, Tooltip } from 'antd';
import { ClockCircleOutlined, FolderOutlined, BuildOutlined, BlockOutlined, PictureOutlined, AppstoreOutlined, DeleteOutlined, GlobalOutlined, UserOutlined, MenuOutlined, LogoutOutlined, UnorderedListOutlined, FontSizeOutlined } from '@ant-design/icons';
import { ShareAltOutlined } from '@ant-design/icons';
import { TeamOutlined, FileSyncOutlined } from '@ant-design/icons';
import { groupPathIn } from '../../features/groups/paths.ts';
import { CompassOutlined, CloudServerOutlined, StarOutlined, HeartOutlined } from '@ant-design/icons';
import { taskEvents } from '../../features/tasks/task-events.ts';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useSearchParams, Link } from 'react-router';
import { LANGUAGES, type Language } from '@cadcloud/i18n';
import { useUser } from '../../features/auth/user.tsx';
import { TaskPanel } from '../../features/tasks/TaskPanel.tsx';
import { formatSize } from '../../lib/format.ts';
import { LANGUAGE_NAMES, setLanguage } from '../../lib/i18n.ts';
import { isPhone } from '../../lib/device.ts';
import { ShoppingOutlined, GiftOutlined, CrownOutlined, IdcardOutlined } from '@ant-design/icons';
import { payPathIn } from '../../features/pay/plans.ts';
import { FreezeBanner } from '../../features/pay/Freeze.tsx';
import { AdSlot } from '../../features/pay/AdSlot.tsx';
import { CompanyEntry } from '../../features/invoices/CompanyEntry.tsx';

export function LanguageSwitcher() {
  const { i18n } = useTranslation();
  return (
    <Dropdown menu={{ items: LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_NAMES[l] })), onClick: ({ key }) => setLanguage(key as Language), selectable: true, selectedKeys: [i18n.language] }}>
      <Button type="text" icon={<GlobalOutlined />} data-testid="lang-switch">{LANGUAGE_NAMES[i18n.language as Language] ?? i18n.language}</Button>
    </Dropdown>
  );
}

export function StorageMeter() {
  const { t } = useTranslation();
  const { capacity } = useUser();
  if (!capacity) return null;
  // at least a sliver once anything is stored, so a small upload visibly moves the meter
  const pct = capacity.used > 0 ? Math.max(1, Math.min(100, Math.round((capacity.used / Math.max(1, capacity.total)) * 100))) : 0;
  return (
    <div className="storage-meter" data-testid="storage-meter">
      <div>{t('storage.label')}{capacity.freeze === 1 && <Typography.Text type="danger"> · {t('storage.frozen')}</Typography.Text>}</div>
      <Progress percent={pct} showInfo={false} size="small" status={capacity.freeze ? 'exception' : 'normal'} />
      <small data-testid="storage-value">{t('storage.value', { used: formatSize(capacity.used), total: formatSize(capacity.total) })}</small>
    </div>
  );
}

/** Search across all folders from the top bar: lands on the all-files list with the query. */
function HeaderSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [text, setText] = useState(params.get('q') ?? '');
  useEffect(() => setText(params.get('q') ?? ''), [params]);
  return (
    <Input.Search
      className="header-search"
      allowClear
      value={text}
      onChange={(e) => setText(e.target.value)}
      placeholder={t('search.everywhere')}
      data-testid="header-search"
      onSearch={(q) => navigate(q.trim() ? `/yun/index?q=${encodeURIComponent(q.trim())}&global=1` : '/yun/index')}
    />
  );
}

/** The desktop shell: navigation, header with search, language and user menu, storage meter, task panel. */
/** Desktop pages with a phone page of their own (the rest lead to the phone home). */
const PHONE_PAGES: Record<string, string> = { '/yun/threeModel': '/webH5/threeModel', '/yun/transformer': '/webH5/transformer' };

export function Shell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { user, logout } = useUser();
  const [drawer, setDrawer] = useState(false);
  // /upgrade and /secure/products are outside /yun: their menu keys are their own paths
  const key = location.pathname.startsWith('/yun/') ? location.pathname.split('/')[2] ?? 'recent' : location.pathname;

  // a phone that opened a desktop link goes to the mobile layout
  useEffect(() => {
    if (isPhone() && !sessionStorage.getItem('cadcloud.forceDesktop')) navigate(groupPathIn('/webH5', location.pathname + location.search) ?? payPathIn('/webH5', location.pathname + location.search) ?? PHONE_PAGES[location.pathname] ?? '/webH5', { replace: true });
  }, []);

  const items = [
    { key: 'recent', icon: <ClockCircleOutlined />, label: t('nav.recent') },
    { key: 'index', icon: <FolderOutlined />, label: t('nav.index') },
    { key: 'drawing', icon: <BuildOutlined />, label: t('nav.drawing') },
    { key: 'threeModel', icon: <BlockOutlined />, label: t('nav.threeModel') },
    { key: 'picture', icon: <PictureOutlined />, label: t('nav.picture') },
    { key: 'other', icon: <AppstoreOutlined />, label: t('nav.other') },
    { key: 'trash', icon: <DeleteOutlined />, label: t('nav.trash') },
    { key: 'font', icon: <FontSizeOutlined />, label: t('fonts.nav', { ns: 'fonts' }) },
    { key: 'share', icon: <ShareAltOutlined />, label: t('shares.nav', { ns: 'shares' }) },
    { key: 'group', icon: <TeamOutlined />, label: t('groups.nav', { ns: 'groups' }) },
    { key: 'transformer', icon: <FileSyncOutlined />, label: <span data-testid="nav-transformer">{t('transformer.nav', { ns: 'conversions' })}</span> },
    { key: 'order', icon: <ShoppingOutlined />, label: <span data-testid="nav-order">{t('nav.order', { ns: 'pay' })}</span> },
    { key: 'coupon', icon: <GiftOutlined />, label: <span data-testid="nav-coupon">{t('nav.coupon', { ns: 'pay' })}</span> },
    { key: '/secure/products', icon: <IdcardOutlined />, label: <span data-testid="nav-products">{t('nav.products', { ns: 'pay' })}</span> },
    { key: '/upgrade', icon: <CrownOutlined />, label: <span data-testid="nav-upgrade">{t('nav.upgrade', { ns: 'pay' })}</span> },
    // the public library (modules/library)
    {
      type: 'group' as const,
      key: 'publicGroup',
      label: t('library.nav.group', { ns: 'library' }),
      children: [
        { key: 'public', icon: <CompassOutlined />, label: t('library.nav.public', { ns: 'library' }) },
        { key: 'myPublic', icon: <CloudServerOutlined />, label: t('library.nav.myPublic', { ns: 'library' }) },
        { key: 'myCollection', icon: <StarOutlined />, label: t('library.nav.myCollection', { ns: 'library' }) },
        { key: 'myLike', icon: <HeartOutlined />, label: t('library.nav.myLike', { ns: 'library' }) },
      ],
    },
  ];
  const nav = (
    <>
      <Menu mode="inline" selectedKeys={[key]} items={items} onClick={({ key: k }) => { setDrawer(false); navigate(k.startsWith('/') ? k : `/yun/${k}`); }} data-testid="nav" />
      <StorageMeter />
      <AdSlot slot="web-sider" />
      <nav className="shell-info-links" data-testid="info-links">
        <Link to="/help">{t('info:nav.help')}</Link>
        <Link to={`/feedback?from=${encodeURIComponent(location.pathname + location.search)}`}>{t('info:nav.feedback')}</Link>
        <Link to="/contactus">{t('info:nav.contact')}</Link>
        <Link to="/declaration">{t('info:nav.declaration')}</Link>
      </nav>
    </>
  );
  return (
    <Layout className="shell">
      <Layout.Header className="shell-header">
        <Button className="only-narrow" type="text" icon={<MenuOutlined />} onClick={() => setDrawer(true)} aria-label="menu" />
        <div className="brand" onClick={() => navigate('/yun/recent')}>{t('app.name')}</div>
        <div className="header-search-wrap"><HeaderSearch /></div>
        <Tooltip title={t('tasks.title')}>
          <Button type="text" icon={<UnorderedListOutlined />} onClick={() => taskEvents.open()} aria-label={t('tasks.title')} data-testid="tasks-button" />
        </Tooltip>
        <LanguageSwitcher />
        <Dropdown menu={{ items: [{ key: 'name', label: <span data-testid="user-name">{user?.name}<br /><small>{user?.email}</small></span>, disabled: true }, { key: 'company', label: <CompanyEntry /> }, ...(user?.operator ? [{ key: 'operator', label: <Link to="/operator" data-testid="operator-link">{t('invoices:op.menu')}</Link> }] : []), { type: 'divider' as const }, { key: 'logout', icon: <LogoutOutlined />, label: t('user.logout'), danger: true }], onClick: ({ key: k }) => k === 'logout' && logout() }}>
          <Button type="text" data-testid="user-menu"><Avatar size="small" icon={<UserOutlined />} /> <span className="hide-narrow">{user?.name}</span></Button>
        </Dropdown>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={220} theme="light" className="shell-sider hide-narrow">{nav}</Layout.Sider>
        <Drawer open={drawer} onClose={() => setDrawer(false)} placement="left" width={240} styles={{ body: { padding: 0 } }}>{nav}</Drawer>
        <Layout.Content className="shell-content">
          <FreezeBanner />
          <Outlet />
        </Layout.Content>
      </Layout>
      <TaskPanel />
    </Layout>
  );
}
