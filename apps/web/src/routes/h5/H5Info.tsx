import { Avatar, List, Tag } from 'antd';
import { UserOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUser } from '../../features/auth/user.tsx';
import { FeedbackForm } from '../../features/info/FeedbackForm.tsx';
import { StorageMeter } from '../yun/Shell.tsx';

/** /webH5/info/usercenter: the phone account center (name, membership, storage, links to orders, codes, upgrade, help). */
export function H5UserCenter() {
  const { t, i18n } = useTranslation('info');
  const { user } = useUser();
  const navigate = useNavigate();
  const level = user?.vipType === 2 ? 'usercenter.super' : user?.vipType === 1 ? 'usercenter.premium' : 'usercenter.free';
  const ends = user?.vipInfo?.serverEndTimeStamp ? new Date(user.vipInfo.serverEndTimeStamp).toLocaleDateString(i18n.language) : null;
  const links: [string, string][] = [
    ['/yun/order', 'usercenter.orders'],
    ['/yun/coupon', 'usercenter.coupon'],
    ['/upgrade', 'usercenter.upgrade'],
    ['/webH5/info/publicplatform', 'usercenter.public'],
    ['/webH5/info/feedback', 'usercenter.feedback'],
    ['/help', 'usercenter.help'],
    ['/contactus', 'usercenter.contact'],
    ['/declaration', 'usercenter.declaration'],
    ['/webH5/user', 'usercenter.settings'],
  ];
  return (
    <div data-testid="h5-usercenter">
      <div className="h5-user-head">
        <Avatar size={56} icon={<UserOutlined />} />
        <div>
          <h2 data-testid="usercenter-name">{user?.name}</h2>
          <small>{t('usercenter.membership')}: <Tag color={user?.vipType ? 'gold' : undefined} data-testid="usercenter-level">{t(level)}</Tag>{ends && user?.vipType ? t('usercenter.until', { date: ends }) : null}</small>
        </div>
      </div>
      <StorageMeter />
      <List
        dataSource={links}
        renderItem={([to, key]) => (
          <List.Item onClick={() => navigate(to)} style={{ cursor: 'pointer' }} extra={<RightOutlined />} data-testid={`usercenter-link-${to}`}>
            {t(key)}
          </List.Item>
        )}
      />
    </div>
  );
}

/** /webH5/info/feedback: the feedback form in the phone layout, the account's e-mail filled in. */
export function H5Feedback() {
  const { t } = useTranslation('info');
  const { user } = useUser();
  return (
    <div className="h5-feedback">
      <h2>{t('feedback.title')}</h2>
      <FeedbackForm key={user?.email ?? ''} defaultEmail={user?.email} />
    </div>
  );
}
