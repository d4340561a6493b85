import { App, Button, Empty, List, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { TransformStatus, view3dHref, type Model3dTask } from '@cadcloud/contracts';
import { formatTime } from '../../lib/format.ts';

/**
 * 3D conversions as rows (the task panel's 3D tab, /yun/transformer, /webH5/transformer): the source, the progress
 * with the stage it is in while converting, the time; once done it opens in the viewer in a new tab (spec section 2),
 * failed it shows the server's message and converts again.
 */
export function Model3dRows({ list, onRetry, openTab = (href) => window.open(href, '_blank') }: { list: Model3dTask[]; onRetry: (c: Model3dTask) => Promise<void>; openTab?: (href: string) => unknown }) {
  const { t, i18n } = useTranslation('model3dTasks');
  const { message } = App.useApp();
  if (!list.length) return <Empty description={t('tasks.empty')} />;
  const retry = (c: Model3dTask) => onRetry(c).catch((e: Error) => void message.error(e.message));
  return (
    <List
      size="small"
      className="task-list"
      dataSource={list}
      renderItem={(c) => (
        <List.Item
          data-testid="model3d-row"
          data-status={c.transformStatus}
          data-name={c.name}
          data-progress={c.progress}
          // apart from the progress bar's end icon (the button touched it)
          extra={<span style={{ marginInlineStart: 12, display: 'inline-flex' }}>{
            !c.fileExists && c.transformStatus !== TransformStatus.IN_TRANSFORM ? (
              <small>{t('tasks.gone')}</small>
            ) : c.transformStatus === TransformStatus.SUCCESS_TRANSFORM ? (
              <Button size="small" type="primary" data-testid="model3d-open" onClick={() => openTab(view3dHref(c.fileId))}>{t('tasks.open')}</Button>
            ) : c.transformStatus === TransformStatus.FAIL_TRANSFORM ? (
              <Button size="small" data-testid="model3d-retry" onClick={() => void retry(c)}>{t('tasks.retry')}</Button>
            ) : null
          }</span>}
        >
          <div style={{ width: '100%', minWidth: 0 }}>
            <div className="ellipsis" title={c.name}>{c.name}</div>
            <Progress percent={barPercent(c)} size="small" status={barStatus(c)} data-testid="model3d-progress" />
            <small data-testid="model3d-stage" data-stage={c.stage}>
              {c.transformStatus === TransformStatus.IN_TRANSFORM ? t(`stage.${c.stage}`, { defaultValue: t('state.0') }) : t(`state.${c.transformStatus}`)}
              {` · ${formatTime(c.createTimestamp, i18n.language)}`}
            </small>
            {c.transformStatus === TransformStatus.FAIL_TRANSFORM && c.msg && (
              <div>
                <Typography.Text type="danger" data-testid="model3d-error">{c.msg}</Typography.Text>
              </div>
            )}
          </div>
        </List.Item>
      )}
    />
  );
}

/**
 * The bar's fill: a converted model is done (100 %) whatever the last progress the worker reported (its last report
 * comes before the GLB is stored, so the task ends with e.g. 95); only a converting one animates.
 */
export function barPercent(c: Pick<Model3dTask, 'transformStatus' | 'progress'>): number {
  return c.transformStatus === TransformStatus.SUCCESS_TRANSFORM ? 100 : c.progress;
}

function barStatus(c: Pick<Model3dTask, 'transformStatus'>): 'exception' | 'success' | 'active' | 'normal' {
  if (c.transformStatus === TransformStatus.FAIL_TRANSFORM) return 'exception';
  if (c.transformStatus === TransformStatus.SUCCESS_TRANSFORM) return 'success';
  return c.transformStatus === TransformStatus.IN_TRANSFORM ? 'active' : 'normal';
}
