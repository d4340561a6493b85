import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isPhone } from '../lib/device.ts';

export function NotFound() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return <Result status="404" title={t('notFound.title')} subTitle={t('notFound.text')} extra={<Button type="primary" onClick={() => navigate(isPhone() ? '/webH5' : '/yun/recent')}>{t('common.home')}</Button>} />;
}
