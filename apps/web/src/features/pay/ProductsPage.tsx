import { Alert, Button, Descriptions, Progress, Space } from 'antd';
import { CheckCircleFilled, CloseCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { RIGHTS } from '@cadcloud/contracts';
import { formatSize, formatTime } from '../../lib/format.ts';
import { useUser } from '../auth/user.tsx';
import { FreezeBanner } from './Freeze.tsx';
import { payBase } from './plans.ts';

/** /secure/products, /webH5/products: the account center (membership, end date, storage, rights, expiry warning). */
export function ProductsPage() {
  const { t, i18n } = useTranslation('pay');
  const { user, capacity } = useUser();
  const navigate = useNavigate();
  const base = payBase(useLocation().pathname);
  if (!user) return null;
  const codes = user.vipInfo.goodsCodes.filter((c) => c !== 'SE10' && c !== 'SE50');
  const membership = codes.length ? codes.map((c) => t(`plan.${c}`, { defaultValue: c })).join(', ') : t('plan.free');
  const storage = capacity ?? user.storage;
  const end = user.vipInfo.serverEndTimeStamp;
  return (
    <div className="pay-page" data-testid="products-page">
      <h2 className="page-title">{t('products.title')}</h2>
      <FreezeBanner />
      {/* the server decides the warning: 7 days before the end, never for ML4 */}
      {user.expiryWarning && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('products.expiry', { date: formatTime(end, i18n.language) })} data-testid="expiry-warning" />}
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('products.membership')}><span data-testid="products-membership">{membership}</span></Descriptions.Item>
        <Descriptions.Item label={t('products.endDate')}><span data-testid="products-end">{end ? formatTime(end, i18n.language) : t('products.none')}</span></Descriptions.Item>
        <Descriptions.Item label={t('products.storage')}>
          <span data-testid="products-storage">{formatSize(storage.used)} / {formatSize(storage.total)}</span>
          <Progress percent={Math.min(100, Math.round((storage.used / Math.max(1, storage.total)) * 100))} size="small" showInfo={false} />
        </Descriptions.Item>
        <Descriptions.Item label={t('products.rights')}>
          <ul className="plan-rights" data-testid="products-rights">
            {RIGHTS.map((r) => (
              <li key={r} data-testid={`right-${r}`} data-on={user.rights[r] ? '1' : '0'}>
                {user.rights[r] ? <CheckCircleFilled style={{ color: '#52c41a' }} /> : <CloseCircleOutlined style={{ color: '#bbb' }} />} {t(`right.${r}`)}
              </li>
            ))}
          </ul>
        </Descriptions.Item>
      </Descriptions>
      <Space style={{ marginTop: 16 }} wrap>
        <Button type="primary" onClick={() => navigate(base.upgrade)} data-testid="products-upgrade">{t(user.vipType ? 'products.renew' : 'products.upgrade')}</Button>
        <Button onClick={() => navigate(base.order)}>{t('nav.order')}</Button>
        <Button onClick={() => navigate(base.coupon)}>{t('nav.coupon')}</Button>
      </Space>
    </div>
  );
}
