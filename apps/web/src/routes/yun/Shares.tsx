import { useCallback, useEffect, useState } from 'react';
import { App, Button, Dropdown, Empty, Modal, QRCode, Space, Table, Tag, Tooltip } from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, MoreOutlined, QrcodeOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { copyText, copyToClipboard, sharesApi, type Share } from '../../features/shares/api.ts';
import { EditShareDialog } from '../../features/shares/EditShareDialog.tsx';
import { itemsLabel } from '../../features/shares/ShareDialog.tsx';
import { splitRemaining } from '../../features/shares/validation.ts';
import { ItemIcon } from '../../features/files/icons.tsx';
import { formatTime } from '../../lib/format.ts';
import '../../features/shares/shares.css';

const STATE_COLORS: Record<Share['state'], string> = { active: 'green', cancelled: 'default', expired: 'orange', deleted: 'red' };

/**
 * /yun/share: the user's shares with their items, share time, remaining time (or permanent), state and rights;
 * copy link and code, QR code, change password and valid days, cancel one or many.
 */
export function Shares() {
  const { t, i18n } = useTranslation('shares');
  const { message, modal } = App.useApp();
  const [list, setList] = useState<Share[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<Share | null>(null);
  const [qr, setQr] = useState<Share | null>(null);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const r = await sharesApi.list();
      setList(r.list);
      setTotal(r.total);
      setSelected((s) => s.filter((id) => r.list.some((x) => x.shareId === id && x.state === 'active')));
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  const copy = async (s: Share) => {
    await copyToClipboard(copyText(t, { url: s.shareUrl || s.url, code: s.code, password: s.password }));
    message.success(t('shares.copied'));
  };
  const cancel = (ids: string[]) =>
    modal.confirm({
      title: t('shares.action.cancel'),
      content: t('shares.cancelConfirm', { count: ids.length }),
      okText: t('shares.ok'),
      cancelText: t('shares.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await sharesApi.cancel(ids);
          message.success(t('shares.cancelled'));
        } catch (e) {
          message.error((e as Error).message);
        }
        await load();
      },
    });

  const remaining = (s: Share) => {
    if (s.state !== 'active') return '-';
    const r = splitRemaining(s.remainingMs);
    if (!r) return t('shares.permanent');
    if (s.remainingMs === 0) return t('shares.remaining.over');
    return r.days ? t('shares.remaining.days', { days: r.days, hours: r.hours }) : t('shares.remaining.hours', { hours: r.hours, minutes: r.minutes });
  };
  const rights = (s: Share) => (
    <span className="shares-rights">
      <Tag>{t('shares.right.view')}</Tag>
      {s.rights.canDownload && <Tag color="blue">{t('shares.right.download')}</Tag>}
      {s.rights.canSave && <Tag color="blue">{t('shares.right.save')}</Tag>}
      {s.rights.showNotes && <Tag>{t('shares.right.notes')}</Tag>}
    </span>
  );
  const active = (s: Share) => s.state === 'active';
  // a group share is opened from the group's page: it has no link or code to hand out
  const linkable = (s: Share) => active(s) && s.kind !== 'group';

  const columns = [
    {
      title: t('shares.col.items'),
      key: 'items',
      render: (_: unknown, s: Share) => (
        <div className="shares-items">
          <Space size={6}>
            <ItemIcon type={s.items[0]?.type ?? 'file'} />
            <span data-testid="share-items">{itemsLabel(t, s.items)}</span>
            {s.kind !== 'link' && <Tag data-testid="share-kind">{t(`shares.kind.${s.kind}`)}</Tag>}
          </Space>
          {/* on a phone the folded columns show here */}
          <div className="only-narrow-block muted" style={{ fontSize: 12 }}>
            <Tag color={STATE_COLORS[s.state]}>{t(`shares.state.${s.state}`)}</Tag> {remaining(s)}
          </div>
        </div>
      ),
    },
    { title: t('shares.col.time'), key: 'time', width: 160, responsive: ['md' as const], render: (_: unknown, s: Share) => formatTime(s.shareTime, i18n.language) },
    { title: t('shares.col.remaining'), key: 'remaining', width: 130, responsive: ['sm' as const], render: (_: unknown, s: Share) => <span data-testid="share-remaining">{remaining(s)}</span> },
    { title: t('shares.col.state'), key: 'state', width: 100, responsive: ['sm' as const], render: (_: unknown, s: Share) => <Tag color={STATE_COLORS[s.state]} data-testid="share-state">{t(`shares.state.${s.state}`)}</Tag> },
    { title: t('shares.col.rights'), key: 'rights', responsive: ['lg' as const], render: (_: unknown, s: Share) => rights(s) },
    {
      title: t('shares.col.actions'),
      key: 'actions',
      width: 170,
      render: (_: unknown, s: Share) => (
        <Space size={2}>
          <Tooltip title={t('shares.action.copy')}><Button type="text" size="small" icon={<CopyOutlined />} disabled={!linkable(s)} onClick={() => void copy(s)} data-testid={`share-copy-${s.shareId}`} aria-label={t('shares.action.copy')} /></Tooltip>
          <Tooltip title={t('shares.action.qr')}><Button type="text" size="small" icon={<QrcodeOutlined />} disabled={!linkable(s)} onClick={() => setQr(s)} data-testid={`share-qr-${s.shareId}`} aria-label={t('shares.action.qr')} /></Tooltip>
          <Dropdown trigger={['click']} menu={{
            items: [
              { key: 'edit', icon: <EditOutlined />, label: <span data-testid="share-action-edit">{t('shares.action.edit')}</span>, disabled: !linkable(s) },
              { key: 'cancel', icon: <DeleteOutlined />, label: <span data-testid="share-action-cancel">{t('shares.action.cancel')}</span>, danger: true, disabled: !active(s) },
            ],
            onClick: ({ key }) => (key === 'edit' ? setEditing(s) : cancel([s.shareId])),
          }}>
            <Button type="text" size="small" icon={<MoreOutlined />} data-testid={`share-more-${s.shareId}`} aria-label={t('shares.action.more')} />
          </Dropdown>
        </Space>
      ),
    },
  ];

  const chosen = list.filter((s) => selected.includes(s.shareId) && active(s));
  return (
    <div className="shares-page" data-testid="shares-page">
      <div className="toolbar">
        <Space wrap>
          <h2 style={{ margin: 0 }}>{t('shares.title')}</h2>
          <span className="muted">{t('shares.list.total', { count: total })}</span>
        </Space>
        <Space wrap>
          <Button danger icon={<DeleteOutlined />} disabled={!chosen.length} onClick={() => cancel(chosen.map((s) => s.shareId))} data-testid="shares-cancel-selected">{t('shares.action.cancel')}</Button>
          <Tooltip title={t('shares.refresh')}><Button icon={<ReloadOutlined />} onClick={() => void load()} aria-label={t('shares.refresh')} /></Tooltip>
        </Space>
      </div>
      {selected.length > 0 && <div className="selection-note">{t('shares.list.selected', { count: selected.length })}</div>}
      <Table
        rowKey="shareId"
        size="middle"
        loading={loading}
        dataSource={list}
        columns={columns}
        pagination={list.length > 50 ? { pageSize: 50 } : false}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]), getCheckboxProps: (s: Share) => ({ disabled: !active(s) }) }}
        locale={{ emptyText: <Empty description={t('shares.list.empty')} /> }}
        onRow={(s) => ({ 'data-testid': `share-row-${s.items[0]?.name ?? s.shareId}` }) as React.HTMLAttributes<HTMLElement>}
      />
      <EditShareDialog share={editing} onClose={() => setEditing(null)} onDone={() => { setEditing(null); void load(); }} />
      <Modal open={!!qr} title={t('shares.action.qr')} footer={null} onCancel={() => setQr(null)} width={300} destroyOnHidden>
        {qr && (
          <div className="share-qr" data-testid="shares-qr">
            <QRCode type="svg" value={qr.shareUrl || qr.url} size={200} />
            <small className="muted">{t('shares.result.qr')}</small>
            <Button icon={<CopyOutlined />} onClick={() => void copy(qr)} style={{ marginTop: 8 }}>{t('shares.result.copy')}</Button>
          </div>
        )}
      </Modal>
    </div>
  );
}
