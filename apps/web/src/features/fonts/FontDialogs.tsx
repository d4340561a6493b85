import { useEffect, useState } from 'react';
import { App, Checkbox, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FONT_CODEPAGES, extensionOf, isValidItemName } from '@cadcloud/contracts';
import { fontsApi, type Font } from './api.ts';
import { toastFailure } from '../../lib/api.ts';

/** The name as the server will store it (the font's extension added unless typed) passes the name rules. */
function isValidFontName(stem: string, f: Font): boolean {
  const n = stem.trim();
  return isValidItemName(extensionOf(n) === f.fileType ? n : `${n}.${f.fileType}`);
}

/** Name without the font's own extension: the server keeps the extension, so the user edits only the stem. */
export function stemOfFont(f: Font): string {
  return f.name.toLowerCase().endsWith(`.${f.fileType}`) ? f.name.slice(0, -(f.fileType.length + 1)) : f.name;
}

/** Rename: the server's message (taken name, special characters) shows and the dialog stays open. */
export function RenameFontDialog({ font, onClose, onDone }: { font: Font | null; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('fonts');
  const { message } = App.useApp();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setName(font ? stemOfFont(font) : ''), [font]);
  const submit = async () => {
    if (!font) return;
    if (!name.trim()) return void message.error(t('fonts.nameRequired'));
    if (!isValidFontName(name, font)) return void message.error(t('name.invalid', { ns: 'web' }));
    setBusy(true);
    try {
      await fontsApi.rename(font.id, name.trim());
      message.success(t('fonts.saved'));
      onDone();
    } catch (e) {
      toastFailure(message, e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={!!font} title={t('fonts.rename.title')} okText={t('fonts.ok')} cancelText={t('fonts.cancel')} confirmLoading={busy} onOk={submit} onCancel={onClose} destroyOnHidden>
      <Input value={name} onChange={(e) => setName(e.target.value)} onPressEnter={submit} suffix={font ? `.${font.fileType}` : undefined} autoFocus data-testid="font-rename-input" aria-label={t('fonts.field.name')} />
    </Modal>
  );
}

interface EditValues {
  name: string;
  codepage: number;
  bold: boolean;
  italic: boolean;
}

/** font/edit: name (required), code page from the spec's list, bold, italic. */
export function EditFontDialog({ font, onClose, onDone }: { font: Font | null; onClose(): void; onDone(): void }) {
  const { t } = useTranslation('fonts');
  const { message } = App.useApp();
  const [form] = Form.useForm<EditValues>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (font) form.setFieldsValue({ name: stemOfFont(font), codepage: font.codepage, bold: font.isbold === 1, italic: font.isitalic === 1 });
  }, [font, form]);
  const submit = async () => {
    if (!font) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    setBusy(true);
    try {
      await fontsApi.edit(font.id, { name: v.name.trim(), codepage: v.codepage, bold: !!v.bold, italic: !!v.italic });
      message.success(t('fonts.saved'));
      onDone();
    } catch (e) {
      toastFailure(message, e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={!!font} title={t('fonts.edit.title')} okText={t('fonts.ok')} cancelText={t('fonts.cancel')} confirmLoading={busy} onOk={submit} onCancel={onClose} forceRender>
      <Form form={form} layout="vertical" data-testid="font-edit-form">
        <Form.Item
          name="name"
          label={t('fonts.field.name')}
          rules={[
            { required: true, whitespace: true, message: t('fonts.nameRequired') },
            { validator: (_r, v: string) => (!v?.trim() || !font || isValidFontName(v, font) ? Promise.resolve() : Promise.reject(new Error(t('name.invalid', { ns: 'web' })))) },
          ]}
        >
          <Input suffix={font ? `.${font.fileType}` : undefined} data-testid="font-edit-name" />
        </Form.Item>
        <Form.Item name="codepage" label={t('fonts.field.codepage')}>
          <Select data-testid="font-edit-codepage" options={FONT_CODEPAGES.map((cp) => ({ value: cp, label: t(`fonts.codepage.${cp}`) }))} />
        </Form.Item>
        <Form.Item name="bold" valuePropName="checked" style={{ marginBottom: 4 }}>
          <Checkbox data-testid="font-edit-bold">{t('fonts.field.bold')}</Checkbox>
        </Form.Item>
        <Form.Item name="italic" valuePropName="checked">
          <Checkbox data-testid="font-edit-italic">{t('fonts.field.italic')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
