import { useEffect, useState } from 'react';
import { App, Button, Input, Modal, Space, Typography, type ButtonProps } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { GROUP_INTRO_MAX, GROUP_NAME_MAX } from '@cadcloud/contracts';
import { groupsApi, type Group, type GroupInvite } from './api.ts';
import { formatTime } from '../../lib/format.ts';

/** Create a group, or edit its name and introduction (owner): the server's message shows and the dialog stays open. */
export function GroupFormDialog({ open, group, onClose, onDone }: { open: boolean; group?: Group | null; onClose(): void; onDone(g: Group): void }) {
  const { t } = useTranslation('groups');
  const { message } = App.useApp();
  const [name, setName] = useState('');
  const [intro, setIntro] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setName(group?.name ?? '');
    setIntro(group?.introduction ?? '');
  }, [open, group]);
  const submit = async () => {
    if (!name.trim()) return void message.error(t('groups.nameRequired'));
    setBusy(true);
    try {
      const g = group ? await groupsApi.update(group.groupId, { name: name.trim(), introduction: intro.trim() }) : await groupsApi.create(name.trim(), intro.trim());
      message.success(group ? t('groups.saved') : t('groups.created'));
      onDone(g);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={group ? t('groups.editTitle') : t('groups.createTitle')} okText={t('groups.ok')} cancelText={t('groups.cancel')} confirmLoading={busy} onOk={submit} onCancel={onClose} destroyOnHidden okButtonProps={{ 'data-testid': 'group-form-ok' } as ButtonProps}>
      <div className="group-field">
        <label htmlFor="group-name">{t('groups.field.name')}</label>
        <Input id="group-name" value={name} maxLength={GROUP_NAME_MAX} onChange={(e) => setName(e.target.value)} onPressEnter={submit} autoFocus data-testid="group-name-input" />
      </div>
      <div className="group-field">
        <label htmlFor="group-intro">{t('groups.field.introduction')}</label>
        <Input.TextArea id="group-intro" value={intro} maxLength={GROUP_INTRO_MAX} showCount autoSize={{ minRows: 3, maxRows: 6 }} onChange={(e) => setIntro(e.target.value)} data-testid="group-intro-input" />
      </div>
    </Modal>
  );
}

/** Owner: add a member by their account e-mail. */
export function AddMemberDialog({ group, onClose, onDone }: { group: Group | null; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('groups');
  const { message } = App.useApp();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setEmail(''), [group]);
  const submit = async () => {
    if (!group) return;
    if (!email.trim()) return void message.error(t('groups.emailRequired'));
    setBusy(true);
    try {
      const m = await groupsApi.addMember(group.groupId, email.trim());
      message.success(t('groups.added', { name: m.name }));
      onDone();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={!!group} title={t('groups.addMemberTitle')} okText={t('groups.ok')} cancelText={t('groups.cancel')} confirmLoading={busy} onOk={submit} onCancel={onClose} destroyOnHidden okButtonProps={{ 'data-testid': 'group-add-ok' } as ButtonProps}>
      <Input type="email" value={email} onChange={(e) => setEmail(e.target.value)} onPressEnter={submit} placeholder={t('groups.field.email')} aria-label={t('groups.field.email')} autoFocus data-testid="group-add-email" />
    </Modal>
  );
}

/** Owner: a fresh invitation link to copy (each opening makes a new one; older links keep working until they expire). */
export function InviteDialog({ group, onClose }: { group: Group | null; onClose(): void }) {
  const { t, i18n } = useTranslation('groups');
  const { message } = App.useApp();
  const [invite, setInvite] = useState<GroupInvite | null>(null);
  useEffect(() => {
    setInvite(null);
    if (!group) return;
    groupsApi.invite(group.groupId).then(setInvite, (e) => {
      message.error((e as Error).message);
      onClose();
    });
  }, [group]);
  const phone = window.location.pathname.startsWith('/webH5');
  const link = invite ? (phone ? invite.h5Url : invite.url) : '';
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      message.success(t('groups.copied'));
    } catch {
      // no clipboard permission (plain http): the link is selected for a manual copy
      (document.getElementById('group-invite-link') as HTMLInputElement | null)?.select();
    }
  };
  return (
    <Modal open={!!group} title={t('groups.inviteTitle')} onCancel={onClose} footer={<Button onClick={onClose}>{t('groups.ok')}</Button>} destroyOnHidden>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text type="secondary">{invite ? t('groups.inviteHint', { date: formatTime(invite.expiresAt, i18n.language) }) : ''}</Typography.Text>
        <Space.Compact style={{ width: '100%' }}>
          <Input id="group-invite-link" readOnly value={link} onFocus={(e) => e.target.select()} data-testid="group-invite-link" />
          <Button type="primary" icon={<CopyOutlined />} disabled={!invite} onClick={() => void copy()} data-testid="group-invite-copy">{t('groups.copy')}</Button>
        </Space.Compact>
      </Space>
    </Modal>
  );
}
