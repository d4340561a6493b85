import { useState } from 'react';
import { App, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { sharesApi, type Share } from './api.ts';
import { checkDays, checkPasswordUpdate } from './validation.ts';
import { isPhone } from '../../lib/device.ts';

/** Change an existing share's password (4 digits, or empty for none) and valid days (0–99, counted from now). */
export function EditShareDialog({ share, onClose, onDone }: { share: Share | null; onClose(): void; onDone(s: Share): void }) {
  const { t } = useTranslation('shares');
  const { message } = App.useApp();
  const [form] = Form.useForm<{ password: string; validDays: string }>();
  const [busy, setBusy] = useState(false);
  const phone = isPhone();
  const submit = async () => {
    if (!share) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      const s = await sharesApi.update(share.shareId, { password: v.password ?? '', validDays: Number(v.validDays) });
      message.success(t('shares.edit.saved'));
      onDone(s);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={!!share} title={t('shares.edit.title')} okText={t('shares.ok')} cancelText={t('shares.cancel')} confirmLoading={busy} onOk={submit} onCancel={onClose} destroyOnHidden>
      <Form key={share?.shareId} form={form} layout="vertical" requiredMark={false} preserve={false} initialValues={share ? { password: share.password, validDays: String(share.validDays) } : undefined} data-testid="share-edit-form">
        <Form.Item name="password" label={t('shares.field.password')} extra={t('shares.edit.passwordHelp')} rules={[{ validator: async (_, v) => { const k = checkPasswordUpdate(v); if (k) throw new Error(t(k)); } }]}>
          <Input maxLength={4} inputMode="numeric" autoComplete="off" data-testid="share-edit-password" />
        </Form.Item>
        <Form.Item name="validDays" label={t('shares.field.days')} extra={t('shares.field.daysHelp')} rules={[{ validator: async (_, v) => { const k = checkDays(v, phone); if (k) throw new Error(t(k)); } }]}>
          <Input inputMode="numeric" maxLength={6} data-testid="share-edit-days" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
