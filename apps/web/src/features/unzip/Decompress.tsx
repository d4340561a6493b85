import { useRef, useState, type ReactNode } from 'react';
import { Button, Form, Input, Modal, message, type ButtonProps } from 'antd';
import { FileZipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Item } from '../files/api.ts';
import { taskEvents } from '../tasks/task-events.ts';
import { errorText, folderPath, isArchive, unzipApi, unzipEvents, type DetectUnzip } from './api.ts';
import { watchUnzip } from './use-unzip-tasks.ts';

type Archive = Pick<Item, 'id' | 'name'>;
type Asking = { kind: 'offer'; item: Archive } | { kind: 'repeat'; item: Archive; detect: DetectUnzip } | { kind: 'password'; item: Archive; mode?: 'new'; wrong?: boolean };
/** What is asked now; `id` tells one asking from the next (a dialog answered late closes itself, not a newer one). */
type Step = null | (Asking & { id: number });

/** The archive's password; `onSubmit` answers false for a wrong one, which is said here and may be tried again. */
export function PasswordDialog({ name, open, wrong, onCancel, onSubmit }: { name: string; open: boolean; wrong?: boolean; onCancel: () => void; onSubmit: (password: string) => Promise<boolean> }) {
  const { t } = useTranslation('unzip');
  const [password, setPassword] = useState('');
  const [isWrong, setWrong] = useState(!!wrong);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const ok = await onSubmit(password);
      setWrong(!ok);
      if (ok) setPassword('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={open} title={t('unzip.password.title')} onCancel={onCancel} onOk={submit} okText={t('common.ok', { ns: 'web' })} cancelText={t('common.cancel', { ns: 'web' })} confirmLoading={busy} okButtonProps={{ disabled: !password, 'data-testid': 'unzip-password-ok' } as ButtonProps} destroyOnHidden>
      <p>{t('unzip.password.text', { name })}</p>
      <Form layout="vertical" onFinish={submit}>
        <Form.Item label={t('unzip.password.label')} validateStatus={isWrong ? 'error' : undefined} help={isWrong ? <span data-testid="unzip-password-wrong">{errorText('unzip.wrongPassword')}</span> : undefined}>
          <Input.Password autoFocus value={password} onChange={(e) => setPassword(e.target.value)} onPressEnter={() => password && void submit()} data-testid="unzip-password" autoComplete="off" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * Decompressing an archive (spec sections 4 and 7): `detectUnzip`; a folder of the archive's name next to it → open
 * it, or decompress again into the renamed folder (mode 'new'); a password → asked (checked with `unzipHasPassword`,
 * a wrong one asked again); then `unzip`, and the task panel's unzip tab. The server's refusals (already in the
 * queue …) are shown as it words them. `offer`: a click on an archive, which does not open (section 8), offers this.
 * `askPassword`: a task waiting for a password (statuses 5, 6) continues with one (`unzip {fileId, password}`).
 */
export function useDecompress(onStarted?: (archiveId: string) => void): { start: (item: Archive) => Promise<void>; offer: (item: Archive) => void; askPassword: (item: Archive, wrong: boolean) => void; dialogs: ReactNode } {
  const { t } = useTranslation('unzip');
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>(null);
  const seq = useRef(0);
  const ask = (s: Asking) => setStep({ ...s, id: ++seq.current });
  const close = () => setStep(null);

  const run = async (item: Archive, o: { password?: string; mode?: 'new' }) => {
    const asked = seq.current;
    try {
      const task = await unzipApi.unzip(item.id, o);
      watchUnzip(task.taskId);
      message.success(t('unzip.queued'));
      unzipEvents.changed();
      taskEvents.open('unzip');
      onStarted?.(item.id);
    } catch (e) {
      message.error((e as Error).message);
    }
    setStep((s) => (s?.id === asked ? null : s));
  };
  const next = (item: Archive, detect: DetectUnzip, mode?: 'new') => (detect.needPassword ? ask({ kind: 'password', item, mode }) : run(item, { mode }));
  const start = async (item: Archive) => {
    close();
    try {
      const detect = await unzipApi.detect(item.id);
      if (detect.hasRepeat) ask({ kind: 'repeat', item, detect });
      else await next(item, detect);
    } catch (e) {
      message.error((e as Error).message);
    }
  };
  const withPassword = async (item: Archive, password: string, mode?: 'new') => {
    try {
      if (!(await unzipApi.hasPassword(item.id, password)).correct) return false;
    } catch (e) {
      message.error((e as Error).message);
      return true;
    }
    await run(item, { password, mode });
    return true;
  };

  let dialogs: ReactNode = null;
  if (step?.kind === 'offer')
    dialogs = (
      <Modal open title={step.item.name} onCancel={close} footer={[<Button key="c" data-testid="unzip-offer-cancel" onClick={close}>{t('common.cancel', { ns: 'web' })}</Button>, <Button key="d" type="primary" icon={<FileZipOutlined />} data-testid="unzip-offer" onClick={() => void start(step.item)}>{t('unzip.action')}</Button>]}>
        <p data-testid="unzip-cannot-open">{errorText('unzip.cannotOpen')}</p>
      </Modal>
    );
  else if (step?.kind === 'repeat')
    dialogs = (
      <Modal
        open
        title={t('unzip.repeat.title')}
        onCancel={close}
        footer={[
          <Button key="c" onClick={close}>{t('common.cancel', { ns: 'web' })}</Button>,
          <Button key="o" data-testid="unzip-open-existing" onClick={() => (close(), navigate(folderPath(step.detect.folderId!)))}>{t('unzip.openFolder')}</Button>,
          <Button key="a" type="primary" data-testid="unzip-again" onClick={() => void next(step.item, step.detect, 'new')}>{t('unzip.again')}</Button>,
        ]}
      >
        <p data-testid="unzip-repeat">{t('unzip.repeat.text', { name: step.detect.folderName, newName: step.detect.newFolderName })}</p>
      </Modal>
    );
  else if (step?.kind === 'password') {
    const { item, mode, wrong } = step;
    dialogs = <PasswordDialog key={step.id} open name={item.name} wrong={wrong} onCancel={close} onSubmit={(pw) => withPassword(item, pw, mode)} />;
  }
  return { start, offer: (item) => ask({ kind: 'offer', item }), askPassword: (item, wrong) => ask({ kind: 'password', item, wrong }), dialogs };
}

/** The drive's Decompress: shown for one archive selected (desktop toolbar, the phone's item actions). */
export function DecompressButton({ items, block, onStarted }: { items: Item[]; block?: boolean; onStarted?: (archiveId: string) => void }) {
  const { t } = useTranslation('unzip');
  const decompress = useDecompress(onStarted);
  if (items.length !== 1 || !isArchive(items[0])) return null;
  return (
    <>
      <Button icon={<FileZipOutlined />} block={block} onClick={() => void decompress.start(items[0])} data-testid="btn-unzip">{t('unzip.action')}</Button>
      {decompress.dialogs}
    </>
  );
}
