import { useCallback, useEffect, useMemo, useState } from 'react';
import { Breadcrumb, Button, Card, Checkbox, Dropdown, Empty, Input, Modal, Segmented, Space, Table, Tooltip, message } from 'antd';
import { AppstoreOutlined, BarsOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, FolderAddOutlined, ReloadOutlined, SwapOutlined, UploadOutlined, SortAscendingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ROOT_FOLDER_ID } from '@cadcloud/contracts';
import { filesApi, saveUrl, type Item, type SortField } from '../../features/files/api.ts';
import { MoveDialog, NameDialog, UploadDialog } from '../../features/files/dialogs.tsx';
import { ItemIcon } from '../../features/files/icons.tsx';
import { Thumb, useThumbnailRefresh } from '../../features/files/thumb.tsx';
import { downloadsApi } from '../../features/tasks/downloads.ts';
import { taskEvents } from '../../features/tasks/task-events.ts';
import { uploadQueue } from '../../features/uploads/uploads.ts';
import { useUser } from '../../features/auth/user.tsx';
import { formatSize, formatTime } from '../../lib/format.ts';
import { useUploadLimit } from '../../features/files/use-config.ts';
import { isViewable } from '../../features/viewer/viewable.ts';
import { previewKind } from '../../features/preview/preview-kind.ts';
import { VersionHistoryButton } from '../../features/versions/VersionHistoryButton.tsx';
import { PublishButton, PublicTag } from '../../features/library/PublishButton.tsx';
import { ShareButton } from '../../features/shares/ShareDialog.tsx';
import { ConvertButton } from '../../features/conversions/ConvertDialog.tsx';
import { conversionEvents } from '../../features/conversions/conversion-events.ts';
import { IN_TRANSFORM } from '../../features/conversions/api.ts';
import { CONVERSION_POLL_MS } from '@cadcloud/contracts';
import { DecompressButton, useDecompress } from '../../features/unzip/Decompress.tsx';
import { convertOrOpen3d, is3d, Model3dButton, Model3dProgress, useModel3dProgress } from '../../features/model3d/Model3dAction.tsx';
import { isArchive, unzipEvents } from '../../features/unzip/api.ts';

export type ListKind = 'index' | 'recent' | 'drawing' | 'threeModel' | 'picture' | 'other';

const TYPE_FILTERS: Record<Exclude<ListKind, 'index'>, { includeTypes?: string[]; excludeTypes?: string[] }> = {
  recent: {},
  drawing: { includeTypes: ['drawing'] },
  threeModel: { includeTypes: ['threeD'] },
  picture: { includeTypes: ['image'] },
  other: { excludeTypes: ['drawing', 'threeD', 'image'] },
};

export function FileList({ kind }: { kind: ListKind }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const { refresh: refreshUser } = useUser();
  const folderId = kind === 'index' ? params.get('folderId') ?? ROOT_FOLDER_ID : null;
  const [items, setItems] = useState<Item[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [view, setView] = useState<'list' | 'grid'>(() => (localStorage.getItem('cadcloud.view') as 'grid') ?? 'list');
  const [sort, setSort] = useState<{ field: SortField; desc: boolean }>({ field: kind === 'index' ? 'name' : 'time', desc: kind !== 'index' });
  // the query lives in the address (?q=, &global=1) so the header search and reloads keep it
  const q = params.get('q') ?? '';
  const isGlobal = kind === 'index' && params.get('global') === '1';
  const [searchText, setSearchText] = useState(q);
  useEffect(() => setSearchText(q), [q]);
  const setSearch = (text: string, global = isGlobal) => {
    const next = new URLSearchParams(params);
    if (text.trim()) next.set('q', text.trim());
    else next.delete('q');
    if (global) next.set('global', '1');
    else next.delete('global');
    setParams(next);
  };
  const [crumbs, setCrumbs] = useState<{ id: string; name: string }[]>([]);
  const [dialog, setDialog] = useState<null | 'upload' | 'folder' | 'rename' | 'move'>(null);
  const uploadLimit = useUploadLimit();

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const page =
        kind === 'index'
          ? await filesApi.unionList({ parentId: folderId!, q: q || undefined, isGlobal: !!q && isGlobal, sort: sort.field, desc: sort.desc, pageSize: 1000 })
          : await filesApi.listTypeFiles({ ...TYPE_FILTERS[kind], q: q || undefined, sort: sort.field, desc: sort.desc, pageSize: 1000 });
      setItems(page.list);
      setTotal(page.total);
      setSelected((s) => s.filter((id) => page.list.some((i) => i.id === id)));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setLoading(false);
    }
  }, [kind, folderId, q, isGlobal, sort]);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (kind !== 'index' || folderId === ROOT_FOLDER_ID) return setCrumbs([]);
    filesApi.parentPath(folderId!).then((r) => setCrumbs(r.list), () => setCrumbs([]));
  }, [kind, folderId]);
  // a finished upload refreshes the list and the storage meter
  useEffect(() => {
    uploadQueue.onFinished = () => {
      void load();
      void refreshUser();
    };
    return () => {
      uploadQueue.onFinished = undefined;
    };
  }, [load]);

  // thumbnails are made in the background after an upload: the grid looks again until they are there
  useThumbnailRefresh(items, load, view === 'grid');
  const chosen = useMemo(() => items.filter((i) => selected.includes(i.id)), [items, selected]);
  // section 4: while an item converts, actions on it are blocked; the list looks again every 5 s until it is done
  const converting = chosen.some((i) => i.transformStatus === IN_TRANSFORM);
  const anyConverting = items.some((i) => i.transformStatus === IN_TRANSFORM);
  useEffect(() => {
    if (!anyConverting) return;
    const timer = setInterval(() => void load(), CONVERSION_POLL_MS);
    return () => clearInterval(timer);
  }, [anyConverting, load]);
  useEffect(() => conversionEvents.subscribe(() => void load()), [load]);
  // a decompression finished: the folder it made is next to its archive, so the list showing the archive looks again
  useEffect(() => unzipEvents.onExtracted((archiveId) => items.some((i) => i.id === archiveId) && void load()), [load, items]);
  const decompress = useDecompress(() => setSelected([]));
  // a converting 3D model shows its progress beside its name (section 4)
  const progress3d = useModel3dProgress(items);
  const ids = (list: Item[]) => ({ fileIds: list.filter((i) => i.fileType === 1).map((i) => i.id), folderIds: list.filter((i) => i.fileType === 0).map((i) => i.id) });
  const openFolder = (item: Item) => navigate(`/yun/index?folderId=${item.id}`); // leaves any search
  const open = (item: Item) => {
    if (item.fileType === 0) return openFolder(item);
    if (isViewable(item)) return navigate(`/yun/view/${item.id}`);
    // an archive does not open (section 8's message): decompressing it is offered instead
    if (isArchive(item)) return decompress.offer(item);
    // a 3D model opens converted in the viewer's tab, or is converted first (section 4)
    if (is3d(item)) return void convertOrOpen3d([item], message, (k) => t(k, { ns: 'model3d' })).then((started) => started && void load());
    if (previewKind(item)) navigate(`/yun/preview/${item.id}`);
  };
  const opens = (item: Item) => item.fileType === 0 || isViewable(item) || is3d(item) || !!previewKind(item);
  const done = async (text?: string) => {
    if (text) message.success(text);
    setDialog(null);
    setSelected([]);
    await load();
    await refreshUser();
  };

  const download = async () => {
    try {
      if (chosen.length === 1 && chosen[0].fileType === 1) {
        const r = await filesApi.download(chosen[0].id);
        if (!r.signedUrl) throw new Error(t('errors.emptyLink'));
        saveUrl(r.signedUrl, r.name);
      } else {
        const { fileIds, folderIds } = ids(chosen);
        await downloadsApi.requestZip(fileIds, folderIds);
        message.success(t('dl.queued'));
        taskEvents.open('download');
      }
    } catch (e) {
      message.error((e as Error).message || t('errors.downloadUrl'));
    }
  };

  const remove = () =>
    Modal.confirm({
      title: t('toolbar.delete'),
      content: t('delete.confirm', { count: chosen.length }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        const { fileIds, folderIds } = ids(chosen);
        try {
          await filesApi.remove(fileIds, folderIds, 0);
          await done(t('delete.ok'));
        } catch (e) {
          message.error((e as Error).message);
        }
      },
    });

  const sortMenu = { items: (['name', 'time', 'size'] as const).map((f) => ({ key: f, label: `${t(`sort.${f}`)}${sort.field === f ? (sort.desc ? ' ↓' : ' ↑') : ''}` })), onClick: ({ key }: { key: string }) => setSort((s) => ({ field: key as SortField, desc: s.field === key ? !s.desc : key !== 'name' })) };
  const parentForNew = folderId ?? ROOT_FOLDER_ID;

  const columns = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      render: (_: unknown, item: Item) => (
        <span className="name-cell" onDoubleClick={() => open(item)}>
          <ItemIcon type={item.type} />
          {opens(item) ? <a onClick={() => open(item)} data-testid={`open-${item.name}`}>{item.name}</a> : <span>{item.name}</span>}
          <PublicTag item={item} />
          <Model3dProgress status={progress3d.get(item.id)} />
        </span>
      ),
    },
    { title: t('col.size'), dataIndex: 'size', width: 110, responsive: ['sm' as const], render: (_: unknown, i: Item) => (i.fileType === 0 ? '-' : formatSize(i.size)) },
    { title: t('col.time'), dataIndex: 'modifyTimestamp', width: 170, responsive: ['md' as const], render: (v: number) => formatTime(v, i18n.language) },
  ];

  return (
    <div className="file-list">
      <div className="toolbar">
        <Space wrap>
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setDialog('upload')} data-testid="btn-upload">{t('toolbar.upload')}</Button>
          {kind === 'index' && <Button icon={<FolderAddOutlined />} onClick={() => setDialog('folder')} data-testid="btn-new-folder">{t('toolbar.newFolder')}</Button>}
          <ShareButton items={chosen} />
          <Button icon={<DownloadOutlined />} disabled={!chosen.length} onClick={download} data-testid="btn-download">{t('toolbar.download')}</Button>
          <Button icon={<SwapOutlined />} disabled={!chosen.length || converting} onClick={() => setDialog('move')} data-testid="btn-move">{t('toolbar.move')}</Button>
          <Button icon={<EditOutlined />} disabled={chosen.length !== 1 || converting} onClick={() => setDialog('rename')} data-testid="btn-rename">{t('toolbar.rename')}</Button>
          <VersionHistoryButton items={chosen} />
          <ConvertButton items={chosen} onStarted={() => setSelected([])} />
          <DecompressButton items={chosen} onStarted={() => setSelected([])} />
          <Model3dButton items={chosen} notify={message} onStarted={() => void done()} />
          <PublishButton items={chosen} onDone={done} />
          <Button icon={<DeleteOutlined />} danger disabled={!chosen.length || converting} onClick={remove} data-testid="btn-delete">{t('toolbar.delete')}</Button>
          <Tooltip title={t('toolbar.refresh')}>
            <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('toolbar.refresh')} />
          </Tooltip>
        </Space>
        <Space wrap className="toolbar-right">
          <Input.Search allowClear placeholder={t('search.placeholder')} value={searchText} onChange={(e) => setSearchText(e.target.value)} onSearch={(v) => setSearch(v)} style={{ width: 200 }} data-testid="search" />
          {kind === 'index' && (
            <Checkbox checked={isGlobal} onChange={(e) => setSearch(searchText, e.target.checked)} data-testid="search-global">{t('search.global')}</Checkbox>
          )}
          <Dropdown menu={sortMenu}>
            <Button icon={<SortAscendingOutlined />}>{t('sort.label')}</Button>
          </Dropdown>
          <Segmented
            value={view}
            onChange={(v) => {
              setView(v as 'list');
              localStorage.setItem('cadcloud.view', String(v));
            }}
            options={[
              { value: 'list', icon: <BarsOutlined />, title: t('view.list') },
              { value: 'grid', icon: <AppstoreOutlined />, title: t('view.grid') },
            ]}
          />
        </Space>
      </div>
      {kind === 'index' && (
        <Breadcrumb
          className="crumbs"
          items={[{ title: <a onClick={() => navigate('/yun/index')}>{t('breadcrumb.root')}</a> }, ...crumbs.map((c, n) => ({ title: n === crumbs.length - 1 ? c.name : <a onClick={() => navigate(`/yun/index?folderId=${c.id}`)}>{c.name}</a> }))]}
        />
      )}
      {q && <div className="selection-note" data-testid="search-note">{t('search.results', { q, count: total })} <a onClick={() => setSearch('')}>{t('search.clear')}</a></div>}
      {selected.length > 0 && <div className="selection-note">{t('list.selected', { count: selected.length })}</div>}
      {view === 'list' ? (
        <Table
          rowKey="id"
          size="middle"
          loading={loading}
          dataSource={items}
          columns={columns}
          pagination={total > 1000 ? { pageSize: 100 } : false}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }}
          locale={{ emptyText: <Empty description={t('list.empty')} /> }}
          onRow={(item) => ({ 'data-testid': `row-${item.name}` }) as React.HTMLAttributes<HTMLElement>}
        />
      ) : items.length ? (
        <div className="grid">
          {items.map((item) => (
            <Card key={item.id} size="small" hoverable className={selected.includes(item.id) ? 'grid-card selected' : 'grid-card'} data-testid={`card-${item.name}`} onDoubleClick={() => open(item)}>
              <Checkbox className="grid-check" checked={selected.includes(item.id)} onChange={(e) => setSelected((s) => (e.target.checked ? [...s, item.id] : s.filter((x) => x !== item.id)))} />
              <div className="grid-thumb" onClick={() => open(item)}>
                <Thumb item={item} size={48} />
              </div>
              <div className="grid-name ellipsis" title={item.name}>{item.name}</div>
              <small>{item.fileType === 0 ? t('item.folder') : formatSize(item.size)}</small>
            </Card>
          ))}
        </div>
      ) : (
        <Empty description={t('list.empty')} />
      )}

      {decompress.dialogs}
      <UploadDialog open={dialog === 'upload'} parentId={parentForNew} uploadLimit={uploadLimit} onClose={() => setDialog(null)} />
      <NameDialog open={dialog === 'folder'} title={t('folder.new')} label={t('folder.name')} onCancel={() => setDialog(null)} onSubmit={async (name) => {
        await filesApi.createFolder(parentForNew, name);
        await done();
      }} />
      <NameDialog open={dialog === 'rename'} title={t('rename.title')} label={t('rename.label')} initial={chosen[0]?.name} onCancel={() => setDialog(null)} onSubmit={async (name) => {
        const item = chosen[0];
        await (item.fileType === 0 ? filesApi.renameFolder(item.id, name) : filesApi.renameFile(item.id, name));
        await done();
      }} />
      <MoveDialog open={dialog === 'move'} currentFolderId={chosen.length && chosen.every((c) => c.parentId === chosen[0].parentId) ? chosen[0].parentId : null} onCancel={() => setDialog(null)} onMove={async (target) => {
        const { fileIds, folderIds } = ids(chosen);
        await filesApi.move(fileIds, folderIds, target);
        await done(t('move.ok'));
      }} />
    </div>
  );
}
