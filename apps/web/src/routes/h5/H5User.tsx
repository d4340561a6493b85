import { Avatar, Button, List, Segmented } from 'antd';
import { UserOutlined, LogoutOutlined, DesktopOutlined, FontSizeOutlined } from '@ant-design/icons';
import { CompassOutlined, FileSyncOutlined, IdcardOutlined, MessageOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGES, type Language } from '@cadcloud/i18n';
import { useUser } from '../../features/auth/user.tsx';
import { StorageMeter } from '../yun/Shell.tsx';
import { LANGUAGE_NAMES, setLanguage } from '../../lib/i18n.ts';

export function H5User() {
  const { t, i18n } = useTranslation();
  const { user, logout } = useUser();
  const navigate = useNavigate();
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
        <List.Item>
          <Button type="link" icon={<FontSizeOutlined />} onClick={() => navigate('/webH5/font')} data-testid="h5-fonts">{t('fonts:fonts.title')}</Button>
        </List.Item>
        <List.Item>
          <Button type="link" icon={<CompassOutlined />} onClick={() => navigate('/webH5/info/publicplatform')} data-testid="h5-public">{t('library:library.nav.public')}</Button>
        </List.Item>
        <List.Item>
          <Button type="link" icon={<FileSyncOutlined />} onClick={() => navigate('/webH5/transformer')} data-testid="h5-transformer">{t('conversions:transformer.nav')}</Button>
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
      <Button block danger icon={<LogoutOutlined />} onClick={logout}>{t('user.logout')}</Button>
    </div>
  );
}
