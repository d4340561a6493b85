import { useEffect, useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { shareSession, sharesApi } from '../../features/shares/api.ts';
import { saveUrl } from '../../features/files/api.ts';
import { Viewer } from '../../features/viewer/Viewer.tsx';
import { isPhone } from '../../lib/device.ts';

/**
 * A shared drawing in the viewer (share mode): the scene is asked for with the tab's share token; a download
 * button only when the share grants download. Without a token for this share, back to its page for the code.
 */
export function ShareViewPage({ rand, base, fileId }: { rand: string; base: string; fileId: string }) {
  const { t } = useTranslation('shares');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const session = shareSession.get(rand);
  const [name, setName] = useState<string>();
  useEffect(() => {
    if (!session) return;
    sharesApi.item(session.shareToken, fileId).then((i) => {
      setName(i.name);
      document.title = i.name;
    }, () => undefined);
  }, [fileId]);
  if (!session) return <Navigate to={base} replace />;
  const download = async () => {
    try {
      const r = await sharesApi.download(session.shareToken, fileId);
      saveUrl(r.signedUrl || r.downloadUrl, r.name);
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate(base));
  const extra = session.rights.canDownload ? (
    <Tooltip title={t('shares.view.download')}>
      <Button size="small" icon={<DownloadOutlined />} onClick={() => void download()} data-testid="share-view-download" aria-label={t('shares.view.download')} />
    </Tooltip>
  ) : undefined;
  return <Viewer key={fileId} fileId={fileId} name={name} phone={isPhone()} shareToken={session.shareToken} onBack={back} extra={extra} />;
}
