import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Alert, App, Button, Dropdown, Empty, Input, Progress, Space, Table, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import {
  CloudOutlined, CloudUploadOutlined, DeleteOutlined, DiffOutlined, DownloadOutlined, EditOutlined, EyeOutlined, LaptopOutlined, LeftOutlined, MoreOutlined, ReloadOutlined, RollbackOutlined, SearchOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { extensionOf } from '@cadcloud/contracts';
import { versionsApi, versionComparePath, versionViewPath, type Version } from '../../features/versions/api.ts';
import { CloudPickerDialog, RemarkDialog } from '../../features/versions/VersionDialogs.tsx';
import { useUser } from '../../features/auth/user.tsx';
import { saveUrl } from '../../features/files/api.ts';
import { formatSize, formatTime } from '../../lib/format.ts';

const PAGE_SIZE = 20;
const VIEWABLE = /\.(dwg|dxf|dwt|dws)$/i;
const isDrawing = (v: Version) => VIEWABLE.test(v.sourceName);

/**
 * Version history of one file (/yun/version/{fileId}, and /webH5/version/{fileId} on phones): search by original file
 * name and updater, batch delete and download, compare two drawing versions, upload a new version (from this computer
 * or from the cloud), edit a remark, roll back, preview. Columns fold away on narrow screens; every row action is in
 * its "more" menu too.
 */
export function Versions() {
  const { fileId } = useParams();
  const navigate = useNavigate();
  const { t, i18n } = useTranslation('versions');
  const { refresh: refreshUser } = useUser();
  const { message, modal } = App.useApp();
  const [rows, setRows] = useState<Version[]>([]);
  const [total, setTotal] = useState(0);
  const [page, setPage] = useState(1);
  const [fileName, setFileName] = useState('');
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [sourceName, setSourceName] = useState('');
  const [updateName, setUpdateName] = useState('');
  const [filter, setFilter] = useState<{ sourceName?: string; updateName?: string }>({});
  const [uploading, setUploading] = useState<{ name: string; pct: number } | null>(null);
  const [remarking, setRemarking] = useState<Version | null>(null);
  const [picking, setPicking] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const ext = extensionOf(fileName);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await versionsApi.history({ fileId: fileId!, ...filter, pageNo: page, pageSize: PAGE_SIZE });
      setRows(r.list);
      setTotal(r.total);
      setFileName(r.fileName);
      document.title = `${r.fileName} · ${t('versions.title')}`;
    } catch (e) {
      setRows([]);
      setTotal(0);
      message.error((e as Error).message);
    } finally {
      setLoading(false);
    }
  }, [fileId, filter, page]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => setSelected([]), [fileId, filter, page]);

  const after = async () => {
    setSelected([]);
    await load();
    await refreshUser();
  };
  const run = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) message.success(ok);
    } catch (e) {
      message.error((e as Error).message);
    }
    await after();
  };

  const search = () => {
    setPage(1);
    setFilter({ sourceName: sourceName.trim() || undefined, updateName: updateName.trim() || undefined });
  };
  const reset = () => {
    setSourceName('');
    setUpdateName('');
    setPage(1);
    setFilter({});
  };

  async function uploadLocal(files: FileList | null) {
    const list = Array.from(files ?? []);
    if (input.current) input.current.value = '';
    if (!list.length) return message.error(t('versions.upload.hint', { ext }));
    // spec: a new version is uploaded one file at a time
    if (list.length > 1) return message.error(t('versions.oneFile'));
    const file = list[0];
    setUploading({ name: file.name, pct: 0 });
    try {
      const v = await versionsApi.upload(fileId!, file, (pct) => setUploading({ name: file.name, pct }));
      message.success(t('versions.uploaded', { n: v.version }));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setUploading(null);
    }
    setPage(1);
    await after();
  }

  const rollback = (v: Version) =>
    modal.confirm({
      title: t('versions.action.rollback'), content: t('versions.rollbackConfirm', { n: v.version }), okText: t('versions.ok'), cancelText: t('versions.cancel'),
      okButtonProps: { 'data-testid': 'version-rollback-ok' } as ButtonProps,
      onOk: () => run(async () => {
        const nv = await versionsApi.back(v);
        message.success(t('versions.rolledBack', { n: nv.version }));
        setPage(1);
      }),
    });
  const remove = (list: Version[]) => {
    if (list.some((v) => v.isLatest)) return message.error(t('versions.latestLocked'));
    modal.confirm({
      title: t('versions.action.delete'), content: t('versions.deleteConfirm', { count: list.length }), okText: t('versions.ok'), cancelText: t('versions.cancel'), okButtonProps: { danger: true, 'data-testid': 'version-delete-ok' } as ButtonProps,
      onOk: () => run(() => (list.length === 1 ? versionsApi.remove(list[0].versionId) : versionsApi.removeBatch(list.map((v) => v.versionId))), t('versions.deleted')),
    });
  };
  const download = async (v: Version) => {
    try {
      const d = await versionsApi.download(v.versionId);
      saveUrl(d.signedUrl, d.name);
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const preview = (v: Version) => navigate(versionViewPath(v.fileId, v.versionId), { state: { title: t('versions.previewOf', { name: v.sourceName, n: v.version }) } });

  const remarkText = (v: Version) => t(`versions.remark.${v.remarkType}`, { from: v.remarkType === 4 ? (v.remarkFrom ?? '').split(',').map((x, i) => (i ? `Z${x}` : `V${x}`)).join('') : v.remarkFrom, defaultValue: v.description });
  const rowMenu = (v: Version) => [
    { key: 'preview', icon: <EyeOutlined />, disabled: !isDrawing(v), label: <span data-testid="version-action-preview">{t('versions.action.preview')}</span>, onClick: () => preview(v) },
    { key: 'download', icon: <DownloadOutlined />, label: <span data-testid="version-action-download">{t('versions.action.download')}</span>, onClick: () => void download(v) },
    { key: 'rollback', icon: <RollbackOutlined />, disabled: !!v.isLatest, label: <span data-testid="version-action-rollback">{t('versions.action.rollback')}</span>, onClick: () => rollback(v) },
    { key: 'remark', icon: <EditOutlined />, label: <span data-testid="version-action-remark">{t('versions.action.editRemark')}</span>, onClick: () => setRemarking(v) },
    { type: 'divider' as const },
    { key: 'delete', icon: <DeleteOutlined />, danger: true, disabled: !!v.isLatest, label: <span data-testid="version-action-delete">{t('versions.action.delete')}</span>, onClick: () => remove([v]) },
  ];

  const columns = [
    {
      title: t('versions.col.version'), key: 'version', width: 96,
      render: (_: unknown, v: Version) => (
        <span data-testid={`version-number-${v.version}`}>
          <b>V{v.version}</b> {v.isLatest === 1 && <Tag color="blue" data-testid="version-latest">{t('versions.latest')}</Tag>}
        </span>
      ),
    },
    {
      title: t('versions.col.sourceName'), dataIndex: 'sourceName', ellipsis: true,
      render: (_: unknown, v: Version) => (
        <div>
          <div className="name-cell">{isDrawing(v) ? <a onClick={() => preview(v)} data-testid={`version-open-${v.version}`}>{v.sourceName}</a> : <span>{v.sourceName}</span>}</div>
          {/* a phone hides the size, time and remark columns: the essentials go under the name */}
          <div>
            <small className="only-narrow version-narrow" style={{ whiteSpace: 'normal', color: 'rgba(0,0,0,.55)' }} data-testid={`version-narrow-${v.version}`}>
              {formatSize(v.size)} · {formatTime(v.updateTime, i18n.language)} · {remarkText(v)}{v.remark ? ` · ${v.remark}` : ''}
            </small>
          </div>
        </div>
      ),
    },
    { title: t('versions.col.size'), dataIndex: 'size', width: 100, responsive: ['sm' as const], render: (n: number) => formatSize(n) },
    { title: t('versions.col.updateTime'), dataIndex: 'updateTime', width: 160, responsive: ['md' as const], render: (ms: number) => formatTime(ms, i18n.language) },
    { title: t('versions.col.updateName'), dataIndex: 'updateName', width: 120, responsive: ['lg' as const], ellipsis: true },
    {
      title: t('versions.col.remark'), key: 'remark', responsive: ['md' as const], ellipsis: true,
      render: (_: unknown, v: Version) => (
        <span data-testid={`version-remark-${v.version}`}>
          <Tag>{remarkText(v)}</Tag>
          {v.remark && <span className="version-remark">{v.remark}</span>}
        </span>
      ),
    },
    {
      title: <span className="hide-narrow">{t('versions.col.actions')}</span>, key: 'actions', width: 84, align: 'center' as const,
      render: (_: unknown, v: Version) => (
        <Space size={0}>
          <Tooltip title={t('versions.action.preview')}>
            <Button type="text" icon={<EyeOutlined />} disabled={!isDrawing(v)} onClick={() => preview(v)} aria-label={t('versions.action.preview')} data-testid={`version-preview-${v.version}`} className="hide-narrow" />
          </Tooltip>
          <Dropdown menu={{ items: rowMenu(v) }} trigger={['click']}>
            <Button type="text" icon={<MoreOutlined />} aria-label={t('versions.action.more')} data-testid={`version-actions-${v.version}`} />
          </Dropdown>
        </Space>
      ),
    },
  ];

  const chosen = rows.filter((v) => selected.includes(v.versionId));
  const canCompare = chosen.length === 2 && chosen.every(isDrawing);
  const compare = () => {
    // older first: "what changed from a to b"
    const [a, b] = [...chosen].sort((x, y) => x.version - y.version);
    navigate(versionComparePath(fileId!, a.versionId, b.versionId));
  };

  return (
    <div className="file-list versions-page" data-testid="versions-page">
      <div className="toolbar">
        <Space wrap>
          <Button type="text" icon={<LeftOutlined />} onClick={() => (window.history.length > 1 ? navigate(-1) : navigate('/yun/index'))} aria-label={t('versions.back')} data-testid="versions-back" />
          <Typography.Title level={4} style={{ margin: 0 }}>{t('versions.title')}</Typography.Title>
          <Typography.Text type="secondary" ellipsis style={{ maxWidth: 260 }} data-testid="versions-file-name">{fileName}</Typography.Text>
        </Space>
        <Space wrap>
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'local', icon: <LaptopOutlined />, label: <span data-testid="version-upload-local">{t('versions.upload.local')}</span>, onClick: () => input.current?.click() },
                { key: 'cloud', icon: <CloudOutlined />, label: <span data-testid="version-upload-cloud">{t('versions.upload.cloud')}</span>, onClick: () => setPicking(true) },
              ],
            }}
          >
            <Button type="primary" icon={<CloudUploadOutlined />} loading={!!uploading} data-testid="version-upload">{t('versions.upload')}</Button>
          </Dropdown>
          <input ref={input} type="file" accept={ext ? `.${ext}` : undefined} hidden onChange={(e) => void uploadLocal(e.target.files)} data-testid="version-upload-input" />
          <Button icon={<DownloadOutlined />} disabled={!chosen.length} onClick={() => void versionsApi.downloadBatch(chosen.map((v) => v.versionId)).catch((e) => message.error((e as Error).message))} data-testid="version-batch-download">{t('versions.action.batchDownload')}</Button>
          <Button danger icon={<DeleteOutlined />} disabled={!chosen.length} onClick={() => remove(chosen)} data-testid="version-batch-delete">{t('versions.action.batchDelete')}</Button>
          <Tooltip title={t('versions.compareHint')}>
            <Button icon={<DiffOutlined />} disabled={!canCompare} onClick={compare} data-testid="version-compare">{t('versions.action.compare')}</Button>
          </Tooltip>
          <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('versions.refresh')} />
        </Space>
      </div>
      <div className="versions-search" style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 12 }}>
        <Input allowClear placeholder={t('versions.search.sourceName')} value={sourceName} onChange={(e) => setSourceName(e.target.value)} onPressEnter={search} style={{ flex: '1 1 160px', maxWidth: 260 }} data-testid="version-search-source" />
        <Input allowClear placeholder={t('versions.search.updateName')} value={updateName} onChange={(e) => setUpdateName(e.target.value)} onPressEnter={search} style={{ flex: '1 1 140px', maxWidth: 200 }} data-testid="version-search-updater" />
        <Button type="primary" icon={<SearchOutlined />} onClick={search} data-testid="version-search">{t('versions.search.go')}</Button>
        <Button onClick={reset}>{t('versions.search.reset')}</Button>
      </div>
      {uploading && (
        <div className="font-upload-progress" data-testid="version-upload-progress">
          <small>{t('versions.uploading', { name: uploading.name })}</small>
          <Progress percent={uploading.pct} size="small" />
        </div>
      )}
      {ext && <Alert type="info" showIcon message={t('versions.upload.hint', { ext })} style={{ marginBottom: 12 }} />}
      <Table<Version>
        rowKey="versionId"
        size="middle"
        loading={loading}
        dataSource={rows}
        columns={columns}
        pagination={total > PAGE_SIZE ? { current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage, showTotal: (n) => t('versions.total', { count: n }) } : false}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as string[]) }}
        onRow={(v) => ({ 'data-testid': `version-row-${v.version}` }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty description={t('versions.empty')} /> }}
      />
      <RemarkDialog version={remarking} onClose={() => setRemarking(null)} onDone={() => { setRemarking(null); void load(); }} />
      <CloudPickerDialog
        open={picking}
        fileId={fileId!}
        ext={ext}
        onClose={() => setPicking(false)}
        onPick={async (item) => {
          try {
            const v = await versionsApi.copy(fileId!, item.id);
            message.success(t('versions.uploaded', { n: v.version }));
            setPicking(false);
            setPage(1);
            await after();
          } catch (e) {
            message.error((e as Error).message);
          }
        }}
      />
    </div>
  );
}
