import { useEffect, useState } from 'react';
import { Layout, Menu, Dropdown, Button, Progress, Drawer, Avatar, Typography } from 'antd';
import { ClockCircleOutlined, FolderOutlined, BuildOutlined, BlockOutlined, PictureOutlined, AppstoreOutlined, DeleteOutlined, GlobalOutlined, UserOutlined, MenuOutlined, LogoutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { LANGUAGES, type Language } from '@cadcloud/i18n';
import { useUser } from '../../features/auth/user.tsx';
import { TaskPanel } from '../../features/tasks/TaskPanel.tsx';
import { formatSize } from '../../lib/format.ts';
import { LANGUAGE_NAMES, setLanguage } from '../../lib/i18n.ts';
import { isPhone } from '../../lib/device.ts';

export function LanguageSwitcher() {
  const { i18n } = useTranslation();
  return (
    <Dropdown menu={{ items: LANGUAGES.map((l) => ({ key: l, label: LANGUAGE_NAMES[l] })), onClick: ({ key }) => setLanguage(key as Language), selectedKeys: [i18n.language] }}>
      <Button type="text" icon={<GlobalOutlined />} data-testid="lang-switch">{LANGUAGE_NAMES[i18n.language as Language] ?? i18n.language}</Button>
    </Dropdown>
  );
}

export function StorageMeter() {
  const { t } = useTranslation();
  const { user } = useUser();
  if (!user) return null;
  const pct = Math.min(100, Math.round((user.storage.used / Math.max(1, user.storage.total)) * 100));
  return (
    <div className="storage-meter" data-testid="storage-meter">
      <div>{t('storage.label')}{user.freeze === 1 && <Typography.Text type="danger"> · {t('storage.frozen')}</Typography.Text>}</div>
      <Progress percent={pct} showInfo={false} size="small" status={user.freeze ? 'exception' : 'normal'} />
      <small>{t('storage.value', { used: formatSize(user.storage.used), total: formatSize(user.storage.total) })}</small>
    </div>
  );
}

/** The desktop shell: navigation, search-free header, storage meter, task panel. */
export function Shell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { user, logout } = useUser();
  const [drawer, setDrawer] = useState(false);
  const key = location.pathname.split('/')[2] ?? 'recent';

  // a phone that opened a desktop link goes to the mobile layout
  useEffect(() => {
    if (isPhone() && !sessionStorage.getItem('cadcloud.forceDesktop')) navigate('/webH5', { replace: true });
  }, []);

  const items = [
    { key: 'recent', icon: <ClockCircleOutlined />, label: t('nav.recent') },
    { key: 'index', icon: <FolderOutlined />, label: t('nav.index') },
    { key: 'drawing', icon: <BuildOutlined />, label: t('nav.drawing') },
    { key: 'threeModel', icon: <BlockOutlined />, label: t('nav.threeModel') },
    { key: 'picture', icon: <PictureOutlined />, label: t('nav.picture') },
    { key: 'other', icon: <AppstoreOutlined />, label: t('nav.other') },
    { key: 'trash', icon: <DeleteOutlined />, label: t('nav.trash') },
  ];
  const nav = (
    <>
      <Menu mode="inline" selectedKeys={[key]} items={items} onClick={({ key: k }) => { setDrawer(false); navigate(`/yun/${k}`); }} data-testid="nav" />
      <StorageMeter />
    </>
  );
  return (
    <Layout className="shell">
      <Layout.Header className="shell-header">
        <Button className="only-narrow" type="text" icon={<MenuOutlined />} onClick={() => setDrawer(true)} aria-label="menu" />
        <div className="brand" onClick={() => navigate('/yun/recent')}>{t('app.name')}</div>
        <div style={{ flex: 1 }} />
        <LanguageSwitcher />
        <Dropdown menu={{ items: [{ key: 'logout', icon: <LogoutOutlined />, label: t('user.logout') }], onClick: () => logout() }}>
          <Button type="text" data-testid="user-menu"><Avatar size="small" icon={<UserOutlined />} /> <span className="hide-narrow">{user?.name}</span></Button>
        </Dropdown>
      </Layout.Header>
      <Layout>
        <Layout.Sider width={220} theme="light" className="shell-sider hide-narrow">{nav}</Layout.Sider>
        <Drawer open={drawer} onClose={() => setDrawer(false)} placement="left" width={240} styles={{ body: { padding: 0 } }}>{nav}</Drawer>
        <Layout.Content className="shell-content">
          <Outlet />
        </Layout.Content>
      </Layout>
      <TaskPanel />
    </Layout>
  );
}
