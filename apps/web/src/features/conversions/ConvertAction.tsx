import { useEffect, useState } from 'react';
import { Button, Progress, Space, Typography } from 'antd';
import { FileSyncOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CONVERSION_POLL_MS } from '@cadcloud/contracts';
import { conversionsApi, FAIL_TRANSFORM, IN_TRANSFORM, SUCCESS_TRANSFORM, type FileTransformStatus } from './api.ts';
import { ConvertDialog, type ViewArea } from './ConvertDialog.tsx';
import { resultPath } from './ConversionRows.tsx';

/**
 * "Convert" where one file is open (the viewer, the phone's item page), which has no task panel: the dialog, then this
 * file's conversion right here, polled every 5 s, with its result to open. `layout`: the one the viewer shows, which
 * "current layout" converts; `currentView`: the drawing rectangle it shows (the desktop viewer; a phone's details have none).
 */
export function ConvertAction({ file, layout, currentView, block, size }: { file: { id: string; name: string }; layout?: string; currentView?: () => ViewArea | undefined; block?: boolean; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('conversions');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<FileTransformStatus | null>(null);
  const look = () => conversionsApi.status([file.id]).then((r) => setStatus(r.list[0]), () => undefined);
  useEffect(() => {
    void look();
  }, [file.id]);
  const running = status?.transformStatus === IN_TRANSFORM;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(look, CONVERSION_POLL_MS);
    return () => clearInterval(timer);
  }, [running]);
  const result = status?.transformStatus === SUCCESS_TRANSFORM ? resultPath(status) : null;
  return (
    <Space size={4} wrap={false} style={block ? { width: '100%', flexDirection: 'column', alignItems: 'stretch' } : undefined}>
      <Button size={size} block={block} icon={<FileSyncOutlined />} disabled={running} onClick={() => setOpen(true)} data-testid="viewer-convert">
        {t('convert.viewer')}
      </Button>
      {running && (
        <span data-testid="convert-progress" title={t(`convert.stage.${status!.stage}`, { defaultValue: t('convert.state.0') })} style={{ display: 'inline-flex', alignItems: 'center' }}>
          <Progress type="circle" percent={status!.progress} size={22} status="active" />
        </span>
      )}
      {result && (
        <Button size={size} block={block} type="primary" data-testid="convert-open-result" data-result-name={status?.resultName ?? ''} title={status?.resultName ?? undefined} onClick={() => navigate(result)}>
          {t('convert.open')}
        </Button>
      )}
      {status?.transformStatus === FAIL_TRANSFORM && status.msg && <Typography.Text type="danger" data-testid="convert-failed">{status.msg}</Typography.Text>}
      <ConvertDialog files={[file]} currentLayout={layout} currentView={currentView} open={open} onClose={() => setOpen(false)} onStarted={() => void look()} />
    </Space>
  );
}
