import { Button, Card, Space, Tooltip } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ConversionRows } from './ConversionRows.tsx';
import { useConversions } from './use-conversions.ts';
import { Model3dRows } from '../model3d/Model3dRows.tsx';
import { useModel3dTasks } from '../model3d/use-model3d-tasks.ts';

/**
 * /yun/transformer and /webH5/transformer: the user's conversions (source, target, state, time, result link, retry),
 * then the 3D conversions (on a phone the only list of them: the task panel is the desktop's).
 */
export function TransformerPage() {
  const { t } = useTranslation('conversions');
  const { list, retry, refresh } = useConversions();
  const models = useModel3dTasks();
  return (
    <>
    <Card
      title={<span data-testid="transformer-title">{t('transformer.title')}</span>}
      extra={
        <Space>
          <Tooltip title={t('toolbar.refresh', { ns: 'web' })}>
            <Button icon={<ReloadOutlined />} onClick={() => void Promise.all([refresh(), models.refresh()])} aria-label={t('toolbar.refresh', { ns: 'web' })} />
          </Tooltip>
        </Space>
      }
      data-testid="transformer"
      className="transformer-card"
    >
      <ConversionRows list={list} onRetry={retry} showTime />
    </Card>
    <Card title={<span data-testid="transformer-3d-title">{t('tasks.title', { ns: 'model3dTasks' })}</span>} style={{ marginTop: 12 }} data-testid="transformer-3d" className="transformer-card">
      <Model3dRows list={models.list} onRetry={models.retry} />
    </Card>
    </>
  );
}
