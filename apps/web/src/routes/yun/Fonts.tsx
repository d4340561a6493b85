import { useCallback, useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Dropdown, Empty, Progress, Segmented, Space, Switch, Table, Tag, Tooltip, Typography } from 'antd';
import { CloudUploadOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, FontSizeOutlined, MoreOutlined, ReloadOutlined, RollbackOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { FONT_TYPES, extensionOf, isValidItemName } from '@cadcloud/contracts';
import { fontsApi, type Font } from '../../features/fonts/api.ts';
import { EditFontDialog, RenameFontDialog } from '../../features/fonts/FontDialogs.tsx';
import { useUser } from '../../features/auth/user.tsx';
import { saveUrl } from '../../features/files/api.ts';
import { formatSize, formatTime } from '../../lib/format.ts';
import { toastFailure } from '../../lib/api.ts';

type View = 'library' | 'bin';

/**
 * The font library (/yun/font, and /webH5/font on phones): upload, rename, edit, download, batch download,
 * publish/unpublish, delete to the font bin, restore. Columns fold away on narrow screens; every action of a
 * row is also in its "more" menu, so a phone has them all.
 */
export function Fonts() {
  const { t, i18n } = useTranslation('fonts');
  const { refresh: refreshUser } = useUser();
  // the App context's message and modal: they take the page's theme (fonts with CJK fallbacks), the static ones do not
  const { message, modal } = App.useApp();
  const [view, setView] = useState<View>('library');
  const [fonts, setFonts] = useState<Font[]>([]);
  const [total, setTotal] = useState(0);
  const [selected, setSelected] = useState<string[]>([]);
  const [loading, setLoading] = useState(false);
  const [uploading, setUploading] = useState<{ name: string; pct: number } | null>(null);
  const [renaming, setRenaming] = useState<Font | null>(null);
  const [editing, setEditing] = useState<Font | null>(null);
  const input = useRef<HTMLInputElement>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await fontsApi.list({ deleted: view === 'bin' });
      setFonts(r.fontsList);
      setTotal(r.total);
    } catch (e) {
      // spec section 7: on a non-success code the font list is empty with total 0
      setFonts([]);
      setTotal(0);
      toastFailure(message, e);
    } finally {
      setSelected([]);
      setLoading(false);
    }
  }, [view]);
  useEffect(() => {
    void load();
  }, [load]);

  const run = async (fn: () => Promise<unknown>, ok?: string) => {
    try {
      await fn();
      if (ok) message.success(ok);
    } catch (e) {
      toastFailure(message, e);
    }
    await load();
    await refreshUser();
  };

  async function uploadFiles(files: FileList | null) {
    for (const file of Array.from(files ?? [])) {
      // the server checks extension and content; this only spares a round trip for an obvious mistake
      if (!(FONT_TYPES as readonly string[]).includes(extensionOf(file.name))) {
        message.error(t('fonts.uploadHint'));
        continue;
      }
      if (!isValidItemName(file.name)) {
        message.error(`${t('name.invalid', { ns: 'web' })}: ${file.name}`);
        continue;
      }
      setUploading({ name: file.name, pct: 0 });
      try {
        await fontsApi.upload(file, (pct) => setUploading({ name: file.name, pct }));
        message.success(t('fonts.uploaded', { name: file.name }));
      } catch (e) {
        toastFailure(message, e);
      }
    }
    setUploading(null);
    if (input.current) input.current.value = '';
    if (view !== 'library') setView('library');
    else await load();
    await refreshUser();
  }

  const confirm = (content: string, onOk: () => Promise<void>) =>
    modal.confirm({ title: t('fonts.title'), content, okText: t('fonts.ok'), cancelText: t('fonts.cancel'), okButtonProps: { danger: true }, onOk });
  const removeFonts = (ids: string[]) => confirm(t('fonts.deleteConfirm', { count: ids.length }), () => run(() => fontsApi.remove(ids, 0), t('fonts.deleted')));
  const removeForever = (ids: string[]) => confirm(t('fonts.deleteForeverConfirm', { count: ids.length }), () => run(() => fontsApi.remove(ids, 1), t('fonts.deleted')));
  const download = async (f: Font) => {
    try {
      const d = await fontsApi.download(f.id);
      saveUrl(d.signedUrl, d.name);
    } catch (e) {
      toastFailure(message, e);
    }
  };
  const togglePublic = (f: Font, on: boolean) => run(() => fontsApi.setPublic(f.id, on), on ? t('fonts.published') : t('fonts.unpublished'));

  const rowMenu = (f: Font) =>
    view === 'library'
      ? [
          { key: 'rename', icon: <EditOutlined />, label: <span data-testid="font-action-rename">{t('fonts.action.rename')}</span>, onClick: () => setRenaming(f) },
          { key: 'edit', icon: <FontSizeOutlined />, label: <span data-testid="font-action-edit">{t('fonts.action.edit')}</span>, onClick: () => setEditing(f) },
          { key: 'download', icon: <DownloadOutlined />, label: <span data-testid="font-action-download">{t('fonts.action.download')}</span>, onClick: () => void download(f) },
          { key: 'public', label: <span data-testid="font-action-public">{f.ispublic ? t('fonts.action.unpublish') : t('fonts.action.publish')}</span>, onClick: () => void togglePublic(f, !f.ispublic) },
          { type: 'divider' as const },
          { key: 'delete', icon: <DeleteOutlined />, danger: true, label: <span data-testid="font-action-delete">{t('fonts.action.delete')}</span>, onClick: () => removeFonts([f.id]) },
        ]
      : [
          { key: 'restore', icon: <RollbackOutlined />, label: <span data-testid="font-action-restore">{t('fonts.action.restore')}</span>, onClick: () => void run(() => fontsApi.restore([f.id]), t('fonts.restored')) },
          { key: 'forever', icon: <DeleteOutlined />, danger: true, label: <span data-testid="font-action-forever">{t('fonts.action.deleteForever')}</span>, onClick: () => removeForever([f.id]) },
        ];

  const style = (f: Font) => [f.isbold ? t('fonts.style.bold') : '', f.isitalic ? t('fonts.style.italic') : ''].filter(Boolean).join(' · ') || t('fonts.style.regular');
  const columns = [
    {
      title: t('fonts.col.name'), dataIndex: 'name', ellipsis: true,
      render: (_: unknown, f: Font) => (
        <span className="name-cell" data-testid={`font-name-${f.name}`}>
          <FontSizeOutlined style={{ color: '#1677ff' }} />
          <span>{f.name}</span>
          {f.issubfont === 1 && <Tag>{t('fonts.subfont')}</Tag>}
          {view === 'library' && f.ispublic === 1 && <Tag color="green" className="only-narrow">{t('fonts.public.yes')}</Tag>}
        </span>
      ),
    },
    { title: t('fonts.col.size'), dataIndex: 'size', width: 100, responsive: ['sm' as const], render: (v: number) => formatSize(v) },
    { title: t('fonts.col.type'), dataIndex: 'fileType', width: 70, responsive: ['md' as const], render: (v: string) => v.toUpperCase() },
    ...(view === 'library'
      ? [
          { title: t('fonts.col.codepage'), dataIndex: 'codepage', width: 150, responsive: ['lg' as const], render: (v: number) => <span data-testid="font-codepage">{t(`fonts.codepage.${v}`, { defaultValue: String(v) })}</span> },
          { title: t('fonts.col.style'), key: 'style', width: 110, responsive: ['lg' as const], render: (_: unknown, f: Font) => <span data-testid="font-style">{style(f)}</span> },
          {
            title: <Tooltip title={t('fonts.publicHint')}>{t('fonts.col.public')}</Tooltip>, dataIndex: 'ispublic', width: 90, responsive: ['md' as const],
            render: (_: unknown, f: Font) => <Switch size="small" checked={f.ispublic === 1} onChange={(on) => void togglePublic(f, on)} data-testid={`font-public-${f.name}`} aria-label={t('fonts.col.public')} />,
          },
          { title: t('fonts.col.created'), dataIndex: 'createTime', width: 150, responsive: ['xl' as const], render: (v: number) => formatTime(v, i18n.language) },
        ]
      : [{ title: t('fonts.col.deleted'), dataIndex: 'deleteTime', width: 160, responsive: ['md' as const], render: (v: number) => formatTime(v, i18n.language) }]),
    {
      title: <span className="hide-narrow">{t('fonts.col.actions')}</span>, key: 'actions', width: 64, align: 'center' as const,
      render: (_: unknown, f: Font) => (
        <Dropdown menu={{ items: rowMenu(f) }} trigger={['click']}>
          <Button type="text" icon={<MoreOutlined />} aria-label={t('fonts.action.more')} data-testid={`font-actions-${f.name}`} />
        </Dropdown>
      ),
    },
  ];

  const chosen = fonts.filter((f) => selected.includes(f.id)).map((f) => f.id);
  return (
    <div className="file-list fonts-page" data-testid="fonts-page">
      <div className="toolbar">
        <Space wrap>
          <Typography.Title level={4} style={{ margin: 0 }}>{t('fonts.title')}</Typography.Title>
          <Segmented<View> value={view} onChange={(v) => setView(v)} options={[{ value: 'library', label: <span data-testid="fonts-view-library">{t('fonts.library')}</span> }, { value: 'bin', label: <span data-testid="fonts-view-bin">{t('fonts.bin')}</span> }]} />
        </Space>
        <Space wrap>
          {view === 'library' ? (
            <>
              <Tooltip title={t('fonts.uploadHint')}>
                <Button type="primary" icon={<CloudUploadOutlined />} loading={!!uploading} onClick={() => input.current?.click()} data-testid="font-upload">{t('fonts.upload')}</Button>
              </Tooltip>
              <input ref={input} type="file" accept=".ttf,.ttc,.shx" multiple hidden onChange={(e) => void uploadFiles(e.target.files)} data-testid="font-upload-input" />
              <Button icon={<DownloadOutlined />} disabled={!chosen.length} onClick={() => void fontsApi.downloadBatch(chosen).catch((e) => toastFailure(message, e))} data-testid="font-batch-download">{t('fonts.action.batchDownload')}</Button>
              <Button danger icon={<DeleteOutlined />} disabled={!chosen.length} onClick={() => removeFonts(chosen)} data-testid="font-delete">{t('fonts.action.delete')}</Button>
            </>
          ) : (
            <>
              <Button type="primary" icon={<RollbackOutlined />} disabled={!chosen.length} onClick={() => void run(() => fontsApi.restore(chosen), t('fonts.restored'))} data-testid="font-restore">{t('fonts.action.restore')}</Button>
              <Button danger icon={<DeleteOutlined />} disabled={!chosen.length} onClick={() => removeForever(chosen)} data-testid="font-delete-forever">{t('fonts.action.deleteForever')}</Button>
            </>
          )}
          <Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('fonts.refresh')} />
        </Space>
      </div>
      {uploading && (
        <div className="font-upload-progress" data-testid="font-upload-progress">
          <small>{t('fonts.uploading', { name: uploading.name })}</small>
          <Progress percent={uploading.pct} size="small" />
        </div>
      )}
      <Alert type="info" showIcon message={view === 'bin' ? t('fonts.binHint') : t('fonts.publicHint')} style={{ marginBottom: 12 }} />
      <Table<Font>
        rowKey="id"
        size="middle"
        loading={loading}
        dataSource={fonts}
        columns={columns}
        pagination={total > 50 ? { pageSize: 50, showSizeChanger: false, showTotal: (n) => t('fonts.total', { count: n }) } : false}
        rowSelection={{ selectedRowKeys: selected, onChange: (k) => setSelected(k as string[]) }}
        onRow={(f) => ({ 'data-testid': `font-row-${f.name}` }) as React.HTMLAttributes<HTMLElement>}
        locale={{ emptyText: <Empty data-testid="fonts-empty" description={view === 'bin' ? t('fonts.binEmpty') : t('fonts.empty')} /> }}
      />
      <RenameFontDialog font={renaming} onClose={() => setRenaming(null)} onDone={() => { setRenaming(null); void load(); }} />
      <EditFontDialog font={editing} onClose={() => setEditing(null)} onDone={() => { setEditing(null); void load(); }} />
    </div>
  );
}
