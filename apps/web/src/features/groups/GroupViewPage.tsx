import { useEffect, useState } from 'react';
import { App, Button, Result, Tooltip } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { groupsApi, groupsBase, type GroupOpenShareResult } from './api.ts';
import { saveUrl } from '../files/api.ts';
import { Viewer } from '../viewer/Viewer.tsx';
import { isPhone } from '../../lib/device.ts';

/**
 * A drawing shared with a group, in the viewer (/yun/group/{groupId}/view/{shareId}/{fileId}): membership is
 * checked by openShare, which gives the share token the viewer then uses as a link recipient would. A download
 * button only when the group share is downloadable.
 */
export function GroupViewPage() {
  const { t } = useTranslation('groups');
  const { message } = App.useApp();
  const { groupId, shareId, fileId } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const base = groupsBase(pathname);
  const [access, setAccess] = useState<GroupOpenShareResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState<string>();
  useEffect(() => {
    groupsApi.openShare(groupId!, shareId!).then(
      (a) => {
        setAccess(a);
        groupsApi.item(a.shareToken, fileId!).then((i) => {
          setName(i.name);
          document.title = i.name;
        }, () => undefined);
      },
      (e) => setError((e as Error).message),
    );
  }, [groupId, shareId, fileId]);
  const back = () => (window.history.length > 1 ? navigate(-1) : navigate(`${base}/group?id=${encodeURIComponent(groupId!)}`));
  if (error) return <Result status="warning" title={error} extra={<Button onClick={back}>{t('groups.back')}</Button>} data-testid="group-view-error" />;
  if (!access) return null;
  const download = async () => {
    try {
      const r = await groupsApi.download(access.shareToken, fileId!);
      saveUrl(r.signedUrl || r.downloadUrl, r.name);
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const extra = access.rights.canDownload ? (
    <Tooltip title={t('groups.view.download')}>
      <Button size="small" icon={<DownloadOutlined />} onClick={() => void download()} data-testid="group-view-download" aria-label={t('groups.view.download')} />
    </Tooltip>
  ) : undefined;
  return <Viewer key={fileId} fileId={fileId!} name={name} phone={isPhone()} shareToken={access.shareToken} onBack={back} extra={extra} />;
}
