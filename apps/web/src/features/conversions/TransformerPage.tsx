import { Button, Card, Space, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ConversionRows } from './ConversionRows.tsx';
import { useConversions } from './use-conversions.ts';

/** /yun/transformer and /webH5/transformer: the user's conversions (source, target, state, time, result link, retry). */
export function TransformerPage() {
  const { t } = useTranslation('conversions');
  const { list, retry, refresh } = useConversions();
  return (
    <Card
      title={<span data-testid="transformer-title">{t('transformer.title')}</span>}
      extra={
        <Space>
          <Tooltip title={t('toolbar.refresh', { ns: 'web' })}>
            <Button icon={<ReloadOutlined />} onClick={() => void refresh()} aria-label={t('toolbar.refresh', { ns: 'web' })} />
          </Tooltip>
        </Space>
      }
      data-testid="transformer"
    >
      <ConversionRows list={list} onRetry={retry} showTime />
    </Card>
  );
}
