import { Avatar, Button, List, Segmented } from 'antd';
import { UserOutlined, LogoutOutlined, DesktopOutlined, FontSizeOutlined, SettingOutlined } from '@ant-design/icons';
import { BlockOutlined, CompassOutlined, FileSyncOutlined, IdcardOutlined, MessageOutlined, ShoppingOutlined, GiftOutlined, CrownOutlined } from '@ant-design/icons';
import { AdSlot } from '../../features/pay/AdSlot.tsx';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES, type Language } from '@cadcloud/i18n';
import { useUser } from '../../features/auth/user.tsx';
import { StorageMeter } from '../yun/Shell.tsx';
import { LANGUAGE_NAMES, setLanguage } from '../../lib/i18n.ts';
import { CompanyEntry } from '../../features/invoices/CompanyEntry.tsx';

export function H5User() {
  const { t, i18n } = useTranslation();
  const { user, logout } = useUser();
  const navigate = useNavigate();
  // the user's pages: account center, upgrade, orders, exchange codes, fonts, the public library, conversions
  const links: [string, React.ReactNode, string, string][] = [
    ['products', <IdcardOutlined />, '/webH5/products', 'pay:nav.products'],
    ['upgrade', <CrownOutlined />, '/webH5/upgrade', 'pay:nav.upgrade'],
    ['order', <ShoppingOutlined />, '/webH5/order', 'pay:nav.order'],
    ['coupon', <GiftOutlined />, '/webH5/coupon', 'pay:nav.coupon'],
    ['fonts', <FontSizeOutlined />, '/webH5/font', 'fonts:fonts.title'],
    ['public', <CompassOutlined />, '/webH5/info/publicplatform', 'library:library.nav.public'],
    ['threeModel', <BlockOutlined />, '/webH5/threeModel', 'nav.threeModel'],
    ['transformer', <FileSyncOutlined />, '/webH5/transformer', 'conversions:transformer.nav'],
    // the operator page (desktop layout, usable at phone width) for OPERATOR_EMAILS accounts only
    ...(user?.operator ? [['operator', <SettingOutlined />, '/operator', 'invoices:op.menu'] as [string, React.ReactNode, string, string]] : []),
  ];
  return (
    <div>
      <div className="h5-user-head">
        <Avatar size={56} icon={<UserOutlined />} />
        <div>
          <h2 data-testid="h5-user-name">{user?.name}</h2>
          <small>{user?.email}</small>
        </div>
      </div>
      <StorageMeter />
      <List>
        <List.Item>
          <span>{t('user.language')}</span>
          <Segmented size="small" data-testid="h5-lang" value={i18n.language} onChange={(v) => setLanguage(v as Language)} options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
        </List.Item>
        {links.map(([id, icon, to, label]) => (
          <List.Item key={id}>
            <Button type="link" icon={icon} onClick={() => navigate(to)} data-testid={`h5-${id}`}>{t(label)}</Button>
          </List.Item>
        ))}
        <List.Item>
          <CompanyEntry />
        </List.Item>
        <List.Item>
          <Button type="link" icon={<IdcardOutlined />} onClick={() => navigate('/webH5/info/usercenter')} data-testid="h5-usercenter">{t('info:usercenter.title')}</Button>
        </List.Item>
        <List.Item>
          <Button type="link" icon={<MessageOutlined />} onClick={() => navigate('/webH5/info/feedback')} data-testid="h5-feedback">{t('info:nav.feedback')}</Button>
        </List.Item>
        <List.Item>
          <Button type="link" icon={<DesktopOutlined />} onClick={() => { sessionStorage.setItem('cadcloud.forceDesktop', '1'); navigate('/yun/recent'); }}>{t('h5.desktop')}</Button>
        </List.Item>
      </List>
      <AdSlot slot="h5-user" />
      <Button block danger icon={<LogoutOutlined />} onClick={logout}>{t('user.logout')}</Button>
    </div>
  );
}
