import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Empty, Modal, Space, Table, message } from 'antd';
import { DeleteOutlined, RollbackOutlined, ClearOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { filesApi, type Item } from '../../features/files/api.ts';
import { ItemIcon } from '../../features/files/icons.tsx';
import { useUser } from '../../features/auth/user.tsx';
import { formatSize, formatTime } from '../../lib/format.ts';

type TrashItem = Item & { deleteTimestamp: number; expireTimestamp: number };

export function Trash() {
  const { t, i18n } = useTranslation();
  const { refresh: refreshUser } = useUser();
  const [items, setItems] = useState<TrashItem[]>([]);
  const [selected, setSelected] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [folders, files] = await Promise.all([filesApi.trashFolders(), filesApi.trashFiles()]);
      setItems([...(folders.list as TrashItem[]), ...(files.list as TrashItem[])]);
      setSelected([]);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const chosen = items.filter((i) => selected.includes(i.id));
  const split = () => ({ fileIds: chosen.filter((i) => i.fileType === 1).map((i) => i.id), folderIds: chosen.filter((i) => i.fileType === 0).map((i) => i.id) });
  const run = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) message.success(ok);
      await load();
      await refreshUser();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const confirm = (content: string, onOk: () => Promise<void>) => Modal.confirm({ title: t('nav.trash'), content, okText: t('common.ok'), cancelText: t('common.cancel'), okButtonProps: { danger: true }, onOk });

  return (
    <div className="file-list">
      <div className="toolbar">
        <Space wrap>
          <Button type="primary" icon={<RollbackOutlined />} disabled={!chosen.length} data-testid="btn-restore" onClick={() => run(() => filesApi.restore(split().fileIds, split().folderIds), t('trash.restored'))}>{t('toolbar.restore')}</Button>
          <Button danger icon={<DeleteOutlined />} disabled={!chosen.length} onClick={() => confirm(t('trash.deleteConfirm'), () => run(() => filesApi.remove(split().fileIds, split().folderIds, 1)))}>{t('toolbar.deleteForever')}</Button>
          <Button danger icon={<ClearOutlined />} disabled={!items.length} data-testid="btn-empty-trash" onClick={() => confirm(t('trash.emptyConfirm'), () => run(() => filesApi.remove([], [], 2)))}>{t('toolbar.emptyTrash')}</Button>
          <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('toolbar.refresh')} />
        </Space>
      </div>
      <Alert type="info" showIcon message={t('trash.hint')} style={{ marginBottom: 12 }} />
      <Table
        rowKey="id"
        loading={loading}
        dataSource={items}
        pagination={false}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as string[]) }}
        locale={{ emptyText: <Empty description={t('list.empty')} /> }}
        onRow={(item) => ({ 'data-testid': `row-${item.name}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('col.name'), dataIndex: 'name', render: (_: unknown, i: TrashItem) => (<span className="name-cell"><ItemIcon type={i.type} />{i.name}</span>) },
          { title: t('col.size'), dataIndex: 'size', width: 110, responsive: ['sm'], render: (_: unknown, i: TrashItem) => (i.fileType === 0 ? '-' : formatSize(i.size)) },
          { title: t('col.deleted'), dataIndex: 'deleteTimestamp', width: 170, responsive: ['md'], render: (v: number) => formatTime(v, i18n.language) },
          { title: t('col.expire'), dataIndex: 'expireTimestamp', width: 110, render: (v: number) => t('trash.days', { count: Math.max(0, Math.ceil((v - Date.now()) / 86400000)) }) },
        ]}
      />
    </div>
  );
}
