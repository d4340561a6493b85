import { useCallback, useEffect, useState } from 'react';
import { App, Avatar, Breadcrumb, Button, Dropdown, Empty, List, Modal, Space, Tabs, Tag, Tooltip, Typography, type ButtonProps } from 'antd';
import { CloudDownloadOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, EyeOutlined, FileOutlined, FolderOpenOutlined, FolderOutlined, LinkOutlined, LogoutOutlined, MoreOutlined, SaveOutlined, StopOutlined, UserAddOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { extensionOf } from '@cadcloud/contracts';
import { groupsApi, VIEWABLE, type Group, type GroupDetail, type GroupSharedItem, type Item } from './api.ts';
import { AddMemberDialog, GroupFormDialog, InviteDialog } from './GroupDialogs.tsx';
import { saveUrl } from '../files/api.ts';
import { FolderPickDialog } from '../shares/FolderPickDialog.tsx';
import { formatSize, formatTime } from '../../lib/format.ts';

type Entry = { share: GroupSharedItem; item: GroupSharedItem['items'][number] };
const isFolder = (i: { type: string; fileType: number }) => i.fileType === 0 || i.type === 'folder';
const viewable = (name: string) => VIEWABLE.includes(extensionOf(name));

/**
 * One group: name, introduction, member count, the owner's actions (edit, invitation link, add member, delete) or
 * the member's (leave); its shared items (open in the viewer, download and save per the share's rights, cancel by
 * the sharer or owner) and its members (the owner removes).
 */
export function GroupPanel({ groupId, base, onChanged, onGone }: { groupId: string; base: string; onChanged(): void; onGone(): void }) {
  const { t, i18n } = useTranslation('groups');
  const { message, modal } = App.useApp();
  const navigate = useNavigate();
  const [detail, setDetail] = useState<GroupDetail | null>(null);
  const [shares, setShares] = useState<GroupSharedItem[]>([]);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState(false);
  const [inviting, setInviting] = useState<Group | null>(null);
  const [adding, setAdding] = useState<Group | null>(null);
  const [browsing, setBrowsing] = useState<Entry | null>(null);
  const [saving, setSaving] = useState<{ share: GroupSharedItem; item: { id: string; type: string; fileType: number } } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      const [d, s] = await Promise.all([groupsApi.detail(groupId), groupsApi.shares(groupId)]);
      setDetail(d);
      setShares(s.list);
    } catch (e) {
      message.error((e as Error).message);
      onGone();
    } finally {
      setLoading(false);
    }
  }, [groupId]);
  useEffect(() => {
    setDetail(null);
    setShares([]);
    void load();
  }, [load]);

  if (!detail) return <div className="group-panel" data-testid="group-panel-loading" />;
  const g = detail.group;
  const owner = g.role === 'owner';

  const run = async (fn: () => Promise<unknown>, ok?: string, after: () => void = () => void load()) => {
    try {
      await fn();
      if (ok) message.success(ok);
      after();
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const confirm = (content: string, onOk: () => Promise<void>) =>
    modal.confirm({ title: g.name, content, okText: t('groups.ok'), cancelText: t('groups.cancel'), okButtonProps: { danger: true, 'data-testid': 'group-confirm-ok' } as ButtonProps, onOk });

  const token = async (share: GroupSharedItem) => (await groupsApi.openShare(groupId, share.shareId)).shareToken;
  const open = (share: GroupSharedItem, fileId: string) => navigate(`${base}/group/${groupId}/view/${share.shareId}/${fileId}`);
  const download = (share: GroupSharedItem, fileId: string) =>
    run(async () => {
      const r = await groupsApi.download(await token(share), fileId);
      saveUrl(r.signedUrl || r.downloadUrl, r.name);
    }, undefined, () => undefined);
  // save to my cloud: the folder is chosen first (the shares module's folder picker)
  const save = (share: GroupSharedItem, item: { id: string; type: string; fileType: number }) => setSaving({ share, item });
  const saveTo = async (folderId: string) => {
    if (!saving) return;
    setBusy(true);
    const { share, item } = saving;
    await run(async () => groupsApi.save(await token(share), isFolder(item) ? [] : [item.id], isFolder(item) ? [item.id] : [], folderId), t('groups.savedToCloud'), () => setSaving(null));
    setBusy(false);
  };

  const entries: Entry[] = shares.flatMap((share) => share.items.map((item) => ({ share, item })));
  const shareActions = (e: Entry) => {
    const items = [
      ...(isFolder(e.item) ? [{ key: 'browse', icon: <FolderOpenOutlined />, label: <span data-testid="group-item-browse">{t('groups.action.browse')}</span>, onClick: () => setBrowsing(e) }] : []),
      ...(!isFolder(e.item) && viewable(e.item.name) ? [{ key: 'open', icon: <EyeOutlined />, label: <span data-testid="group-item-open">{t('groups.action.open')}</span>, onClick: () => open(e.share, e.item.id) }] : []),
      ...(e.share.rights.canDownload && !isFolder(e.item) ? [{ key: 'download', icon: <DownloadOutlined />, label: <span data-testid="group-item-download">{t('groups.action.download')}</span>, onClick: () => void download(e.share, e.item.id) }] : []),
      ...(e.share.rights.canSave ? [{ key: 'save', icon: <SaveOutlined />, label: <span data-testid="group-item-save">{t('groups.action.save')}</span>, onClick: () => void save(e.share, e.item) }] : []),
      ...(e.share.canCancel
        ? [{ type: 'divider' as const }, {
            key: 'cancel', icon: <StopOutlined />, danger: true, label: <span data-testid="group-item-cancel">{t('groups.action.cancelShare')}</span>,
            onClick: () => confirm(t('groups.cancelShareConfirm', { name: e.item.name }), () => run(() => groupsApi.cancelShare(groupId, e.share.shareId), t('groups.shareCancelled'))),
          }]
        : []),
    ];
    return items;
  };

  const sharesTab = (
    <List<Entry>
      loading={loading}
      dataSource={entries}
      rowKey={(e) => `${e.share.shareId}/${e.item.id}`}
      locale={{ emptyText: <Empty data-testid="group-shares-empty" description={t('groups.sharesEmpty')} /> }}
      renderItem={(e) => {
        const folder = isFolder(e.item);
        const canOpen = folder || viewable(e.item.name);
        return (
          <List.Item
            data-testid={`group-item-${e.item.name}`}
            actions={[
              <Dropdown key="more" menu={{ items: shareActions(e) }} trigger={['click']}>
                <Button type="text" icon={<MoreOutlined />} aria-label={t('groups.action.open')} data-testid={`group-item-actions-${e.item.name}`} />
              </Dropdown>,
            ]}
          >
            <List.Item.Meta
              avatar={folder ? <FolderOutlined className="group-item-icon folder" /> : <FileOutlined className="group-item-icon" />}
              title={
                canOpen ? (
                  <a onClick={() => (folder ? setBrowsing(e) : open(e.share, e.item.id))} data-testid={`group-item-name-${e.item.name}`}>{e.item.name}</a>
                ) : (
                  <span data-testid={`group-item-name-${e.item.name}`}>{e.item.name}</span>
                )
              }
              description={
                <Space size={[4, 4]} wrap>
                  <span>{t('groups.sharedBy', { name: e.share.sharerName, time: formatTime(e.share.shareTime, i18n.language) })}</span>
                  {!folder && <span>· {formatSize(e.item.size)}</span>}
                  <Tag color="blue">{t('groups.right.view')}</Tag>
                  {e.share.rights.canDownload && <Tag color="green" data-testid="group-right-download">{t('groups.right.download')}</Tag>}
                  {e.share.rights.canSave && <Tag color="purple" data-testid="group-right-save">{t('groups.right.save')}</Tag>}
                </Space>
              }
            />
          </List.Item>
        );
      }}
    />
  );

  const membersTab = (
    <List
      dataSource={detail.members}
      rowKey="uid"
      renderItem={(m) => (
        <List.Item
          data-testid={`group-member-${m.email || m.uid}`}
          actions={
            owner && m.role !== 'owner'
              ? [
                  <Button key="rm" size="small" danger onClick={() => confirm(t('groups.removeConfirm', { name: m.name }), () => run(() => groupsApi.removeMember(groupId, m.uid), t('groups.removed'), () => { void load(); onChanged(); }))} data-testid={`group-member-remove-${m.email || m.uid}`}>
                    {t('groups.action.remove')}
                  </Button>,
                ]
              : []
          }
        >
          <List.Item.Meta
            avatar={<Avatar icon={<UserOutlined />} />}
            title={<Space size={6} wrap><span>{m.name}</span>{m.role === 'owner' ? <Tag color="gold">{t('groups.role.owner')}</Tag> : null}</Space>}
            description={<span className="group-member-desc">{m.email}{m.email ? ' · ' : ''}{t('groups.joined', { time: formatTime(m.joinedAt, i18n.language) })}</span>}
          />
        </List.Item>
      )}
    />
  );

  const ownerMenu = [
    { key: 'edit', icon: <EditOutlined />, label: <span data-testid="group-action-edit">{t('groups.action.edit')}</span>, onClick: () => setEditing(true) },
    { key: 'add', icon: <UserAddOutlined />, label: <span data-testid="group-action-add">{t('groups.action.addMember')}</span>, onClick: () => setAdding(g) },
    { type: 'divider' as const },
    {
      key: 'delete', icon: <DeleteOutlined />, danger: true, label: <span data-testid="group-action-delete">{t('groups.action.delete')}</span>,
      onClick: () => confirm(t('groups.deleteConfirm', { name: g.name }), () => run(() => groupsApi.remove(groupId), t('groups.deleted'), onGone)),
    },
  ];

  return (
    <div className="group-panel" data-testid="group-panel">
      <div className="group-head">
        <div className="group-head-text">
          <Typography.Title level={4} style={{ margin: 0 }} data-testid="group-title">{g.name}</Typography.Title>
          <Space size={[6, 4]} wrap className="group-head-meta">
            <Tag color={owner ? 'gold' : 'default'}>{owner ? t('groups.role.owner') : t('groups.role.member')}</Tag>
            <span data-testid="group-member-count">{t('groups.members', { count: g.memberCount })}</span>
            {!owner && <span>· {t('groups.owner', { name: g.ownerName })}</span>}
          </Space>
          <Typography.Paragraph type="secondary" className="group-intro" data-testid="group-intro">{g.introduction || t('groups.noIntro')}</Typography.Paragraph>
        </div>
        <Space wrap>
          {owner ? (
            <>
              <Button type="primary" icon={<LinkOutlined />} onClick={() => setInviting(g)} data-testid="group-invite">{t('groups.action.invite')}</Button>
              <Dropdown menu={{ items: ownerMenu }} trigger={['click']}>
                <Button icon={<MoreOutlined />} aria-label={t('groups.action.edit')} data-testid="group-owner-menu" />
              </Dropdown>
            </>
          ) : (
            <Button danger icon={<LogoutOutlined />} onClick={() => confirm(t('groups.leaveConfirm', { name: g.name }), () => run(() => groupsApi.leave(groupId), t('groups.left'), onGone))} data-testid="group-leave">
              {t('groups.action.leave')}
            </Button>
          )}
        </Space>
      </div>
      <Tabs
        items={[
          { key: 'shares', label: <span data-testid="group-tab-shares">{t('groups.tab.shares')} ({entries.length})</span>, children: sharesTab },
          { key: 'members', label: <span data-testid="group-tab-members">{t('groups.tab.members')} ({detail.members.length})</span>, children: membersTab },
        ]}
      />
      <GroupFormDialog open={editing} group={g} onClose={() => setEditing(false)} onDone={() => { setEditing(false); void load(); onChanged(); }} />
      <InviteDialog group={inviting} onClose={() => setInviting(null)} />
      <AddMemberDialog group={adding} onClose={() => setAdding(null)} onDone={() => { setAdding(null); void load(); onChanged(); }} />
      <FolderPickDialog open={!!saving} busy={busy} onCancel={() => setSaving(null)} onPick={(folderId) => void saveTo(folderId)} />
      <FolderBrowser entry={browsing} groupId={groupId} onClose={() => setBrowsing(null)} onOpen={(fileId) => browsing && open(browsing.share, fileId)} onDownload={(fileId) => browsing && void download(browsing.share, fileId)} onSave={(item) => browsing && void save(browsing.share, { id: item.id, type: item.type, fileType: item.fileType })} />
    </div>
  );
}

/** A shared folder, browsed with the share token (share/files), as a link recipient would. */
function FolderBrowser({ entry, groupId, onClose, onOpen, onDownload, onSave }: { entry: Entry | null; groupId: string; onClose(): void; onOpen(fileId: string): void; onDownload(fileId: string): void; onSave(item: Item): void }) {
  const { t } = useTranslation('groups');
  const { message } = App.useApp();
  const [folderId, setFolderId] = useState<string | undefined>();
  const [list, setList] = useState<Item[]>([]);
  const [path, setPath] = useState<{ id: string; name: string }[]>([]);
  const [loading, setLoading] = useState(false);
  useEffect(() => setFolderId(entry?.item.id), [entry]);
  useEffect(() => {
    if (!entry || !folderId) return;
    setLoading(true);
    groupsApi
      .openShare(groupId, entry.share.shareId)
      .then((o) => groupsApi.files(o.shareToken, folderId))
      .then((r) => {
        setList(r.list);
        setPath(r.path);
      }, (e) => message.error((e as Error).message))
      .finally(() => setLoading(false));
  }, [entry, folderId]);
  const rights = entry?.share.rights;
  return (
    <Modal open={!!entry} title={t('groups.folderTitle')} onCancel={onClose} footer={null} destroyOnHidden width={640}>
      <Breadcrumb items={path.map((p) => ({ title: <a onClick={() => setFolderId(p.id)}>{p.name}</a> }))} style={{ marginBottom: 8 }} />
      <List<Item>
        loading={loading}
        dataSource={list}
        rowKey="id"
        locale={{ emptyText: <Empty description={t('groups.folderEmpty')} /> }}
        renderItem={(i) => {
          const folder = i.fileType === 0 || i.type === 'folder';
          return (
            <List.Item
              data-testid={`group-folder-item-${i.name}`}
              actions={[
                ...(!folder && viewable(i.name) ? [<Tooltip key="o" title={t('groups.action.open')}><Button size="small" icon={<EyeOutlined />} onClick={() => onOpen(i.id)} aria-label={t('groups.action.open')} /></Tooltip>] : []),
                ...(!folder && rights?.canDownload ? [<Tooltip key="d" title={t('groups.action.download')}><Button size="small" icon={<CloudDownloadOutlined />} onClick={() => onDownload(i.id)} aria-label={t('groups.action.download')} /></Tooltip>] : []),
                ...(rights?.canSave ? [<Tooltip key="s" title={t('groups.action.save')}><Button size="small" icon={<SaveOutlined />} onClick={() => onSave(i)} aria-label={t('groups.action.save')} /></Tooltip>] : []),
              ]}
            >
              <List.Item.Meta
                avatar={folder ? <FolderOutlined className="group-item-icon folder" /> : <FileOutlined className="group-item-icon" />}
                title={folder ? <a onClick={() => setFolderId(i.id)}>{i.name}</a> : i.name}
                description={folder ? undefined : formatSize(Number(i.size))}
              />
            </List.Item>
          );
        }}
      />
    </Modal>
  );
}
