import { useEffect, useState } from 'react';
import { Button, Descriptions, Modal, Result, Space, Spin, message } from 'antd';
import { DeleteOutlined, DownloadOutlined, EditOutlined, LeftOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { filesApi, saveUrl, type Item } from '../../features/files/api.ts';
import { ItemIcon } from '../../features/files/icons.tsx';
import { NameDialog } from '../../features/files/dialogs.tsx';
import { formatSize, formatTime } from '../../lib/format.ts';
import { Viewer } from '../../features/viewer/Viewer.tsx';
import { isViewable } from '../../features/viewer/viewable.ts';
import { VersionHistoryButton } from '../../features/versions/VersionHistoryButton.tsx';
import { InfoCircleOutlined } from '@ant-design/icons';
import { ShareButton } from '../../features/shares/ShareDialog.tsx';
import { ConvertAction } from '../../features/conversions/ConvertAction.tsx';
import { isConvertible } from '../../features/conversions/api.ts';
import { DecompressButton } from '../../features/unzip/Decompress.tsx';
import { Model3dButton } from '../../features/model3d/Model3dAction.tsx';
import { UnzipRows } from '../../features/unzip/UnzipRows.tsx';
import { useUnzipTasks } from '../../features/unzip/use-unzip-tasks.ts';
import { isArchive } from '../../features/unzip/api.ts';

/** /webH5/item/{fileId}: the file's details with download, rename and delete. */
export function H5Item() {
  const { fileId } = useParams();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [item, setItem] = useState<Item | null | 'missing'>(null);
  const [renaming, setRenaming] = useState(false);
  const [details, setDetails] = useState(false);
  // the layout the viewer showed before the details opened: their Convert's "current layout"
  const [layout, setLayout] = useState<string>();
  useEffect(() => {
    filesApi.getFileInfo(fileId!).then(setItem, (e) => {
      message.error(e.message);
      setItem('missing');
    });
  }, [fileId]);
  if (item === null) return <Spin />;
  if (item === 'missing') return <Result status="404" title={t('notFound.title')} extra={<Button onClick={() => navigate('/webH5')}>{t('common.home')}</Button>} />;
  // a drawing opens in the viewer; its details (download, rename, delete) are one tap away
  if (isViewable(item) && !details) {
    return <Viewer key={item.id} phone fileId={item.id} name={item.name} onBack={() => navigate(-1)} onLayout={setLayout} extra={<><Button size="small" icon={<InfoCircleOutlined />} onClick={() => setDetails(true)} data-testid="h5-details" aria-label={t('item.type')} /></>} />;
  }
  return (
    <div className="h5-item">
      <Button type="text" icon={<LeftOutlined />} onClick={() => (details ? setDetails(false) : navigate(-1))}>{t('common.back')}</Button>
      <div className="h5-item-head">
        <ItemIcon type={item.type} size={56} />
        <h2 data-testid="h5-item-name">{item.name}</h2>
      </div>
      <Descriptions column={1} size="small" bordered items={[
        { key: 't', label: t('item.type'), children: item.type.toUpperCase() },
        { key: 's', label: t('item.size'), children: formatSize(item.size) },
        { key: 'm', label: t('item.modified'), children: formatTime(item.modifyTimestamp, i18n.language) },
      ]} />
      <Space direction="vertical" style={{ width: '100%', marginTop: 16 }}>
        <Button block type="primary" icon={<DownloadOutlined />} data-testid="h5-download" onClick={() => filesApi.download(item.id).then((r) => saveUrl(r.signedUrl, r.name), (e) => message.error(e.message))}>{t('toolbar.download')}</Button>
        <ShareButton items={[item]} block />
        <Button block icon={<EditOutlined />} data-testid="h5-rename" onClick={() => setRenaming(true)}>{t('toolbar.rename')}</Button>
        <VersionHistoryButton items={[item]} block phone />
        {isConvertible(item) && <ConvertAction file={item} layout={layout} block />}
        <DecompressButton items={[item]} block />
        <Model3dButton items={[item]} notify={message} block onStarted={() => filesApi.getFileInfo(item.id).then(setItem, () => undefined)} />
        <Button block danger icon={<DeleteOutlined />} data-testid="h5-delete" onClick={() => Modal.confirm({
          title: t('toolbar.delete'), content: t('delete.confirm', { count: 1 }), okText: t('common.ok'), cancelText: t('common.cancel'), okButtonProps: { danger: true },
          onOk: async () => {
            await filesApi.remove([item.id], [], 0).then(() => navigate('/webH5/cloud'), (e) => message.error(e.message));
          },
        })}>{t('toolbar.delete')}</Button>
      </Space>
      {isArchive(item) && <ArchiveTasks archiveId={item.id} />}
      <NameDialog open={renaming} title={t('rename.title')} label={t('rename.label')} initial={item.name} onCancel={() => setRenaming(false)} onSubmit={async (name) => {
        setItem(await filesApi.renameFile(item.id, name));
        setRenaming(false);
      }} />
    </div>
  );
}

/** The phone has no task panel: an archive's page shows its decompressions (progress, password, folder to open). */
function ArchiveTasks({ archiveId }: { archiveId: string }) {
  const { list } = useUnzipTasks();
  const mine = list.filter((t) => t.unzip?.fileId === archiveId);
  return mine.length ? <div className="h5-unzip" data-testid="h5-unzip-tasks"><UnzipRows list={mine} /></div> : null;
}
