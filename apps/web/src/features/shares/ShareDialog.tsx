import { useEffect, useState } from 'react';
import { App, Alert, Button, Checkbox, Empty, Form, Input, Modal, QRCode, Radio, Space, Spin, Tabs, Typography } from 'antd';
import { CopyOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { SHARE_CODE_KINDS, SHARE_DAYS_DEFAULT, maxValidDays, type Group, type ShareCodeKind } from '@cadcloud/contracts';
import { copyText, copyToClipboard, sharesApi, type Share } from './api.ts';
import { checkCodeKind, checkDays, checkEmails, checkGroups, checkPassword, codeKindsFor, splitEmails } from './validation.ts';
import { isPhone } from '../../lib/device.ts';
import './shares.css';

/** What can be shared: items of the drive (fileType 0 folder, 1 file). */
export interface ShareTarget {
  id: string;
  name: string;
  fileType: number;
}

interface LinkValues {
  validDays: string;
  password: string;
  codeKind: ShareCodeKind;
  canDownload: boolean;
  canSave: boolean;
  showNotes: boolean;
}

const split = (items: ShareTarget[]) => ({ fileIds: items.filter((i) => i.fileType !== 0).map((i) => i.id), folderIds: items.filter((i) => i.fileType === 0).map((i) => i.id) });

export function itemsLabel(t: (k: string, o?: Record<string, unknown>) => string, items: { name: string }[]) {
  if (!items.length) return '';
  return items.length === 1 ? t('shares.items.one', { name: items[0].name }) : t('shares.items.many', { name: items[0].name, count: items.length });
}

/** A created share: link, extraction code, password, validity, "copy link and code" and a QR code of the link. */
export function ShareResult({ share }: { share: Share }) {
  const { t } = useTranslation('shares');
  const { message } = App.useApp();
  const copy = async () => {
    await copyToClipboard(copyText(t, { url: share.shareUrl || share.url, code: share.code, password: share.password }));
    message.success(t('shares.copied'));
  };
  return (
    <div className="share-result" data-testid="share-result">
      <div className="share-result-fields">
        <div className="share-field">
          <label>{t('shares.result.link')}</label>
          <Input readOnly value={share.shareUrl || share.url} data-testid="share-link" onFocus={(e) => e.target.select()} />
        </div>
        <div className="share-field-row">
          <div className="share-field">
            <label>{t('shares.result.code')}</label>
            <Typography.Text strong className="share-code" data-testid="share-code">{share.code}</Typography.Text>
          </div>
          {share.password && (
            <div className="share-field">
              <label>{t('shares.result.password')}</label>
              <Typography.Text strong className="share-code" data-testid="share-password">{share.password}</Typography.Text>
            </div>
          )}
          <div className="share-field">
            <label>{t('shares.result.validity')}</label>
            <span data-testid="share-validity">{share.validDays === 0 ? t('shares.permanent') : t('shares.days', { count: share.validDays })}</span>
          </div>
        </div>
        <Button type="primary" icon={<CopyOutlined />} onClick={copy} data-testid="share-copy">{t('shares.result.copy')}</Button>
      </div>
      <div className="share-qr" data-testid="share-qr">
        <QRCode type="svg" value={share.shareUrl || share.url} size={148} bordered={false} />
        <small className="muted">{t('shares.result.qr')}</small>
      </div>
    </div>
  );
}

/**
 * Link tab form: valid days 0–99, optional 4-character password, the extraction code's length, rights. A code too
 * short for the validity (and password) cannot be chosen: when the days or the password change so that the chosen
 * one no longer suffices, the shortest that does is taken.
 */
function LinkForm({ form }: { form: ReturnType<typeof Form.useForm<LinkValues>>[0] }) {
  const { t } = useTranslation('shares');
  const phone = isPhone();
  const days = Form.useWatch('validDays', form);
  const password = Form.useWatch('password', form);
  const codeKind = Form.useWatch('codeKind', form);
  const allowed = codeKindsFor(days, password);
  useEffect(() => {
    if (codeKind && !allowed.includes(codeKind)) form.setFieldValue('codeKind', allowed[0]);
  }, [allowed.join(), codeKind]);
  return (
    <Form form={form} layout="vertical" requiredMark={false} initialValues={{ validDays: String(SHARE_DAYS_DEFAULT), password: '', codeKind: 'digits4', canDownload: true, canSave: true, showNotes: false }} data-testid="share-link-form">
      <Space wrap align="start" size={16}>
        <Form.Item name="validDays" label={t('shares.field.days')} extra={t('shares.field.daysHelp')} rules={[{ validator: async (_, v) => { const k = checkDays(v, phone); if (k) throw new Error(t(k)); } }]} style={{ width: 200 }}>
          <Input inputMode="numeric" maxLength={6} data-testid="share-days" />
        </Form.Item>
        <Form.Item name="password" label={t('shares.field.password')} extra={t('shares.field.passwordHelp')} rules={[{ validator: async (_, v) => { const k = checkPassword(v); if (k) throw new Error(t(k)); } }]} style={{ width: 200 }}>
          <Input maxLength={4} placeholder={t('shares.field.passwordPlaceholder')} autoComplete="off" data-testid="share-password-input" />
        </Form.Item>
      </Space>
      <Form.Item
        name="codeKind"
        label={t('shares.field.code')}
        extra={t('shares.field.codeHelp', { days: maxValidDays('digits4') })}
        dependencies={['validDays', 'password']}
        rules={[{ validator: async (_, v) => { const k = checkCodeKind(v, form.getFieldValue('validDays'), form.getFieldValue('password')); if (k) throw new Error(t(k)); } }]}
      >
        <Radio.Group data-testid="share-code-kind">
          {SHARE_CODE_KINDS.map((k) => (
            <Radio key={k} value={k} disabled={!allowed.includes(k)} data-testid={`share-code-kind-${k}`}>{t(`shares.code.${k}`)}</Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item label={t('shares.field.rights')} style={{ marginBottom: 8 }}>
        <Space wrap>
          <Checkbox checked disabled>{t('shares.right.view')}</Checkbox>
          <Form.Item name="canDownload" valuePropName="checked" noStyle><Checkbox data-testid="share-right-download">{t('shares.right.download')}</Checkbox></Form.Item>
          <Form.Item name="canSave" valuePropName="checked" noStyle><Checkbox data-testid="share-right-save">{t('shares.right.save')}</Checkbox></Form.Item>
          <Form.Item name="showNotes" valuePropName="checked" noStyle><Checkbox data-testid="share-right-notes">{t('shares.right.notes')}</Checkbox></Form.Item>
        </Space>
      </Form.Item>
    </Form>
  );
}

/** Group tab: the caller's groups (at least one), with the group share rights view / downloadable / can be dumped. */
function GroupTab({ items, onDone }: { items: ShareTarget[]; onDone(): void }) {
  const { t } = useTranslation('shares');
  const { message } = App.useApp();
  const [groups, setGroups] = useState<Group[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [canDownload, setCanDownload] = useState(true);
  const [canDump, setCanDump] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    sharesApi.groups().then((r) => setGroups(r.list), (e) => {
      setGroups([]);
      message.error((e as Error).message);
    });
  }, []);
  const send = async () => {
    const k = checkGroups(chosen);
    setError(k && t(k));
    if (k) return;
    setBusy(true);
    try {
      const r = await sharesApi.shareToGroups({ groupIds: chosen, ...split(items), canDownload, canDump });
      message.success(t('shares.group.sent', { count: r.shared || chosen.length }));
      onDone();
    } catch (e) {
      message.error((e as Error).message || t('shares.error.groupFail'));
    } finally {
      setBusy(false);
    }
  };
  if (!groups) return <Spin />;
  return (
    <div data-testid="share-group-tab">
      <div className="share-label">{t('shares.group.label')}</div>
      {groups.length ? (
        <Checkbox.Group value={chosen} onChange={(v) => { setChosen(v as string[]); setError(null); }} className="share-groups">
          {groups.map((g) => (
            <Checkbox key={g.groupId} value={g.groupId} data-testid={`share-group-${g.name}`}>
              {g.name} <small className="muted">{t('shares.group.members', { count: g.memberCount })}</small>
            </Checkbox>
          ))}
        </Checkbox.Group>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('shares.group.empty')} />
      )}
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 8 }} data-testid="share-group-error" />}
      <Space wrap style={{ marginTop: 12 }}>
        <Checkbox checked disabled>{t('shares.group.canView')}</Checkbox>
        <Checkbox checked={canDownload} onChange={(e) => setCanDownload(e.target.checked)}>{t('shares.group.canDownload')}</Checkbox>
        <Checkbox checked={canDump} onChange={(e) => setCanDump(e.target.checked)}>{t('shares.group.canDump')}</Checkbox>
      </Space>
      <div style={{ marginTop: 16 }}>
        <Button type="primary" loading={busy} onClick={send} data-testid="share-group-send">{t('shares.group.send')}</Button>
      </div>
    </div>
  );
}

/**
 * The share dialog (spec section 2) for the selected drive items: a link with valid days, password and rights
 * (then link, code, copy and QR), the same link by e-mail, or a share to groups.
 */
export function ShareDialog({ open, items, onClose }: { open: boolean; items: ShareTarget[]; onClose(): void }) {
  const { t } = useTranslation('shares');
  const { message } = App.useApp();
  const [form] = Form.useForm<LinkValues>();
  const [tab, setTab] = useState('link');
  const [share, setShare] = useState<Share | null>(null);
  const [busy, setBusy] = useState(false);
  const [emails, setEmails] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setTab('link');
    setShare(null);
    setEmails('');
    setEmailError(null);
    form.resetFields();
  }, [open]);

  /** The link share of this dialog, created once from the Link tab's settings (the e-mail tab sends it too). */
  const ensureShare = async (): Promise<Share | null> => {
    if (share) return share;
    const v = await form.validateFields().catch(() => null);
    if (!v) {
      setTab('link');
      return null;
    }
    const created = await sharesApi.create({ ...split(items), validDays: Number(v.validDays), password: v.password ?? '', codeKind: v.codeKind, canDownload: !!v.canDownload, canSave: !!v.canSave, showNotes: !!v.showNotes });
    setShare(created);
    return created;
  };
  const create = async () => {
    setBusy(true);
    try {
      await ensureShare();
    } catch (e) {
      message.error((e as Error).message || t('shares.error.createFail'));
    } finally {
      setBusy(false);
    }
  };
  const sendEmail = async () => {
    const k = checkEmails(emails);
    setEmailError(k && t(k));
    if (k) return;
    setBusy(true);
    try {
      const s = await ensureShare();
      if (!s) return;
      const list = splitEmails(emails);
      await sharesApi.email(s.shareId, list);
      message.success(t('shares.email.sent', { count: list.length }));
      setEmails('');
    } catch (e) {
      message.error((e as Error).message || t('shares.error.emailFail'));
    } finally {
      setBusy(false);
    }
  };

  const linkTab = (
    <div data-testid="share-link-tab">
      <div style={{ display: share ? 'none' : undefined }}>
        <LinkForm form={form} />
        <Button type="primary" loading={busy} onClick={create} data-testid="share-create">{t('shares.create')}</Button>
      </div>
      {share && (
        <>
          <Alert type="success" showIcon title={t('shares.result.title')} style={{ marginBottom: 12 }} />
          <ShareResult share={share} />
        </>
      )}
    </div>
  );
  const emailTab = (
    <div data-testid="share-email-tab">
      <div className="share-label">{t('shares.email.label')}</div>
      <Input.TextArea rows={3} value={emails} onChange={(e) => { setEmails(e.target.value); setEmailError(null); }} placeholder={t('shares.email.placeholder')} status={emailError ? 'error' : undefined} data-testid="share-emails" />
      {emailError && <div className="share-error" data-testid="share-email-error">{emailError}</div>}
      <p className="muted share-hint">{t('shares.email.hint')}</p>
      <Button type="primary" loading={busy} onClick={sendEmail} data-testid="share-email-send">{t('shares.email.send')}</Button>
    </div>
  );
  return (
    <Modal open={open} title={<span className="ellipsis share-title"><ShareAltOutlined /> {t('shares.dialog.title', { items: itemsLabel(t, items) })}</span>} onCancel={onClose} footer={<Button onClick={onClose} data-testid="share-close">{t('shares.close')}</Button>} width={640} destroyOnHidden data-testid="share-dialog">
      <Tabs activeKey={tab} onChange={setTab} items={[
        { key: 'link', label: t('shares.tab.link'), children: linkTab, forceRender: true },
        { key: 'email', label: t('shares.tab.email'), children: emailTab },
        { key: 'group', label: t('shares.tab.group'), children: open && tab === 'group' ? <GroupTab items={items} onDone={onClose} /> : null },
      ]} />
    </Modal>
  );
}

/** The drive toolbar's "Share" button with its dialog, for the selected items. */
export function ShareButton({ items, disabled, block }: { items: ShareTarget[]; disabled?: boolean; block?: boolean }) {
  const { t } = useTranslation('shares');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button block={block} icon={<ShareAltOutlined />} disabled={disabled ?? !items.length} onClick={() => setOpen(true)} data-testid="btn-share">{t('shares.toolbar.share')}</Button>
      <ShareDialog open={open} items={items} onClose={() => setOpen(false)} />
    </>
  );
}
