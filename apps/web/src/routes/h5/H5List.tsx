import { useCallback, useEffect, useState } from 'react';
import { Breadcrumb, Button, Empty, List, Spin, message } from 'antd';
import { CloudUploadOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { previewKind } from '../../features/preview/preview-kind.ts';
import { useNavigate, useSearchParams } from 'react-router';
import { ROOT_FOLDER_ID } from '@cadcloud/contracts';
import { filesApi, type Item } from '../../features/files/api.ts';
import { Thumb, useThumbnailRefresh } from '../../features/files/thumb.tsx';
import { useDecompress } from '../../features/unzip/Decompress.tsx';
import { isArchive } from '../../features/unzip/api.ts';
import { formatSize, formatTime } from '../../lib/format.ts';

/** Mobile home (recent files), cloud (folder browser) and the 3D models (the desktop's /yun/threeModel group). */
export function H5List({ mode }: { mode: 'home' | 'cloud' | 'threeModel' }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const folderId = params.get('folderId') ?? ROOT_FOLDER_ID;
  const [items, setItems] = useState<Item[] | null>(null);
  const [crumbs, setCrumbs] = useState<{ id: string; name: string }[]>([]);

  const load = useCallback(async () => {
    try {
      const page =
        mode === 'home' ? await filesApi.listTypeFiles({ pageSize: 50 })
        : mode === 'threeModel' ? await filesApi.listTypeFiles({ includeTypes: ['threeD'], pageSize: 100 })
        : await filesApi.unionList({ parentId: folderId, pageSize: 500 });
      setItems(page.list);
    } catch (e) {
      message.error((e as Error).message);
      setItems([]);
    }
  }, [mode, folderId]);
  useEffect(() => {
    void load();
    if (mode === 'cloud' && folderId !== ROOT_FOLDER_ID) filesApi.parentPath(folderId).then((r) => setCrumbs(r.list), () => setCrumbs([]));
    else setCrumbs([]);
  }, [load]);
  useThumbnailRefresh(items ?? [], load);
  // a decompression started here is followed on the archive's page (its progress, password, folder)
  const decompress = useDecompress((archiveId) => navigate(`/webH5/item/${archiveId}`));

  /**
   * A tap opens what the browser can show (folders, pictures, PDFs); for an archive it says it does not open
   * ('Compressed package files do not support clicking to open') and offers to decompress it, as the desktop list
   * does; everything else opens its details. The ">" arrow always opens the details, an archive's actions included.
   */
  const open = (item: Item) => {
    if (item.fileType === 0) return navigate(`/webH5/cloud?folderId=${item.id}`);
    if (isArchive(item)) return decompress.offer(item);
    const preview = previewKind(item);
    navigate(preview ? `/yun/preview/${item.id}` : `/webH5/item/${item.id}`);
  };

  return (
    <div>
      <div className="h5-title-row">
        <h2 className="h5-title">{mode === 'home' ? t('h5.recent') : mode === 'threeModel' ? t('nav.threeModel') : t('nav.cloud')}</h2>
        {mode === 'cloud' && (
          <Button type="primary" shape="round" icon={<CloudUploadOutlined />} data-testid="h5-upload-here" onClick={() => navigate(`/webH5/upload?folderId=${folderId}`)}>{t('upload.here')}</Button>
        )}
      </div>
      {mode === 'cloud' && (
        <Breadcrumb className="crumbs" items={[{ title: <a onClick={() => navigate('/webH5/cloud')}>{t('breadcrumb.root')}</a> }, ...crumbs.map((c) => ({ title: <a onClick={() => navigate(`/webH5/cloud?folderId=${c.id}`)}>{c.name}</a> }))]} />
      )}
      {items === null ? (
        <Spin />
      ) : items.length ? (
        <List
          dataSource={items}
          renderItem={(item) => (
            <List.Item data-testid={`h5-row-${item.name}`} onClick={() => open(item)} extra={<RightOutlined data-testid={`h5-details-${item.name}`} onClick={(e) => (e.stopPropagation(), navigate(`/webH5/item/${item.id}`))} />}>
              <List.Item.Meta avatar={<Thumb item={item} size={28} box={40} />} title={item.name} description={`${item.fileType === 0 ? t('item.folder') : formatSize(item.size)} · ${formatTime(item.modifyTimestamp, i18n.language)}`} />
            </List.Item>
          )}
        />
      ) : (
        <Empty description={t('list.empty')} />
      )}
      {decompress.dialogs}
    </div>
  );
}
