import { useEffect, useState } from 'react';
import { App, Empty, Input, List, Modal, Radio, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { VERSION_REMARK_MAX } from '@cadcloud/contracts';
import { filesApi, type Item } from '../files/api.ts';
import { ItemIcon } from '../files/icons.tsx';
import { formatSize } from '../../lib/format.ts';
import { versionsApi, type Version } from './api.ts';

/** Edit a version's remark (at most 200 characters; empty clears it). */
export function RemarkDialog({ version, onClose, onDone }: { version: Version | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('versions');
  const { message } = App.useApp();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => setText(version?.remark ?? ''), [version]);
  const save = async () => {
    if (!version) return;
    setBusy(true);
    try {
      await versionsApi.updateRemark(version.versionId, text);
      message.success(t('versions.remarkSaved'));
      onDone();
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={!!version} title={`${t('versions.remarkTitle')} · V${version?.version ?? ''}`} okText={t('versions.ok')} cancelText={t('versions.cancel')} confirmLoading={busy} onOk={() => void save()} onCancel={onClose} destroyOnHidden>
      <Input.TextArea value={text} onChange={(e) => setText(e.target.value)} maxLength={VERSION_REMARK_MAX} showCount autoSize={{ minRows: 3, maxRows: 6 }} placeholder={t('versions.remarkPlaceholder')} data-testid="version-remark-input" />
    </Modal>
  );
}

/** "Upload new version from the cloud": pick one file of the same type in the drive (not this file). */
export function CloudPickerDialog({ open, fileId, ext, onClose, onPick }: { open: boolean; fileId: string; ext: string; onClose: () => void; onPick: (item: Item) => Promise<void> }) {
  const { t } = useTranslation('versions');
  const { message } = App.useApp();
  const [q, setQ] = useState('');
  const [items, setItems] = useState<Item[]>([]);
  const [loading, setLoading] = useState(false);
  const [picked, setPicked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    let gone = false;
    setLoading(true);
    const timer = setTimeout(() => {
      filesApi.listTypeFiles({ includeTypes: ext ? [ext] : undefined, q: q.trim() || undefined, pageSize: 100 }).then(
        (r) => !gone && setItems(r.list.filter((i) => i.id !== fileId && i.fileType !== 0)),
        (e) => !gone && message.error((e as Error).message),
      ).finally(() => !gone && setLoading(false));
    }, 200);
    return () => {
      gone = true;
      clearTimeout(timer);
    };
  }, [open, q, ext, fileId]);
  useEffect(() => {
    if (!open) setPicked(null);
  }, [open]);
  const ok = async () => {
    const item = items.find((i) => i.id === picked);
    if (!item) {
      message.error(t('versions.cloud.title'));
      return;
    }
    setBusy(true);
    try {
      await onPick(item);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('versions.cloud.title')} okText={t('versions.ok')} cancelText={t('versions.cancel')} okButtonProps={{ disabled: !picked, 'data-testid': 'version-cloud-ok' } as ButtonProps} confirmLoading={busy} onOk={() => void ok()} onCancel={onClose} destroyOnHidden>
      <Input.Search allowClear placeholder={t('versions.cloud.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 8 }} data-testid="version-cloud-search" />
      <Radio.Group value={picked} onChange={(e) => setPicked(e.target.value)} style={{ width: '100%' }}>
        <List
          size="small"
          loading={loading}
          dataSource={items}
          style={{ maxHeight: 320, overflow: 'auto' }}
          locale={{ emptyText: <Empty description={t('versions.cloud.empty')} /> }}
          renderItem={(i) => (
            <List.Item key={i.id} onClick={() => setPicked(i.id)} style={{ cursor: 'pointer' }} data-testid={`version-cloud-item-${i.name}`}>
              <Radio value={i.id} style={{ minWidth: 0, flex: 1 }}>
                <span className="name-cell"><ItemIcon type={i.type} /> <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{i.name}</span></span>
              </Radio>
              <small>{formatSize(i.size)}</small>
            </List.Item>
          )}
        />
      </Radio.Group>
    </Modal>
  );
}
