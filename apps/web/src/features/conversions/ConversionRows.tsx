import { Button, Empty, List, Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatTime } from '../../lib/format.ts';
import { isPhone } from '../../lib/device.ts';
import { previewKind } from '../preview/preview-kind.ts';
import { FAIL_TRANSFORM, IN_TRANSFORM, SUCCESS_TRANSFORM, type Conversion } from './api.ts';

/** Where a conversion's result opens: PDFs and pictures in the preview, drawings in the viewer (phone: its item page). */
export function resultPath(c: Pick<Conversion, 'resultFileId' | 'resultName'>): string | null {
  if (!c.resultFileId || !c.resultName) return null;
  if (previewKind({ name: c.resultName, fileType: 1 })) return `/yun/preview/${c.resultFileId}`;
  return isPhone() ? `/webH5/item/${c.resultFileId}` : `/yun/view/${c.resultFileId}`;
}

/**
 * Conversions as rows (the task panel's tab, /yun/transformer): source → target, progress with its stage while
 * converting, the result to open when done, the spec's message and retry when failed.
 */
export function ConversionRows({ list, onRetry, showTime }: { list: Conversion[]; onRetry: (c: Conversion) => void; showTime?: boolean }) {
  const { t, i18n } = useTranslation('conversions');
  const navigate = useNavigate();
  if (!list.length) return <Empty description={t('transformer.empty')} />;
  return (
    <List
      size="small"
      className="task-list"
      dataSource={list}
      renderItem={(c) => {
        const open = resultPath(c);
        return (
          <List.Item
            data-testid="conversion-row"
            data-status={c.transformStatus}
            extra={
              c.transformStatus === SUCCESS_TRANSFORM ? (
                open ? <Button size="small" type="primary" data-testid="conversion-open" onClick={() => navigate(open)}>{t('convert.open')}</Button> : <small>{t('convert.resultGone')}</small>
              ) : c.transformStatus === FAIL_TRANSFORM ? (
                <Button size="small" data-testid="conversion-retry" onClick={() => onRetry(c)}>{t('convert.retry')}</Button>
              ) : null
            }
          >
            <div style={{ width: '100%', minWidth: 0 }}>
              <div className="ellipsis" title={c.sourceName}>
                {c.sourceName} → {c.target.toUpperCase()}{c.version ? ` ${c.version}` : ''}
              </div>
              <Progress percent={c.progress} size="small" status={c.transformStatus === FAIL_TRANSFORM ? 'exception' : c.transformStatus === SUCCESS_TRANSFORM ? 'success' : 'active'} data-testid="conversion-progress" />
              <small>
                {c.transformStatus === IN_TRANSFORM ? t(`convert.stage.${c.stage}`, { defaultValue: t('convert.state.0') }) : t(`convert.state.${c.transformStatus}`)}
                {c.transformStatus === SUCCESS_TRANSFORM && c.resultName ? ` · ${c.resultName}` : ''}
                {showTime ? ` · ${formatTime(c.createTimestamp, i18n.language)}` : ''}
              </small>
              {c.transformStatus === FAIL_TRANSFORM && c.msg && (
                <div>
                  <Typography.Text type="danger" data-testid="conversion-error">{c.msg}</Typography.Text>
                </div>
              )}
            </div>
          </List.Item>
        );
      }}
    />
  );
}
