import { useEffect, useRef, useState } from 'react';
import { Button, Form, Input, Modal, Tree, message } from 'antd';
import { CloudUploadOutlined, FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { isValidItemName, ROOT_FOLDER_ID } from '@cadcloud/contracts';
import { filesApi } from './api.ts';
import { uploadQueue, filesFromDrop, uploadProblem } from '../uploads/uploads.ts';
import { formatSize } from '../../lib/format.ts';
import { taskEvents } from '../tasks/task-events.ts';
import { useUploadConflicts } from '../uploads/ConflictDialog.tsx';

/** Name input with the spec's validation (section 5) before anything is sent. */
export function NameDialog(props: { open: boolean; title: string; label: string; initial?: string; onCancel(): void; onSubmit(name: string): Promise<void> }) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.open) form.setFieldsValue({ name: props.initial ?? '' });
  }, [props.open]);
  const sending = useRef(false);
  const submit = async () => {
    // Enter both submits the form and fires onPressEnter: send once
    if (sending.current) return;
    // the form shows its own validation message; nothing to send
    const values = await form.validateFields().catch(() => null);
    if (!values || sending.current) return;
    const { name } = values;
    sending.current = true;
    setBusy(true);
    try {
      await props.onSubmit(name.trim());
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };
  return (
    <Modal open={props.open} title={props.title} onCancel={props.onCancel} onOk={submit} confirmLoading={busy} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="name"
          label={props.label}
          rules={[
            { required: true, whitespace: true, message: t('name.required') },
            { validator: (_r, v: string) => (!v || isValidItemName(v) ? Promise.resolve() : Promise.reject(new Error(t('name.invalid')))) },
          ]}
        >
          <Input autoFocus data-testid="name-input" onPressEnter={submit} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

interface TreeNode {
  key: string;
  title: string;
  isLeaf?: boolean;
  children?: TreeNode[];
}

/** Folder tree, loaded level by level (folder/list). */
export function MoveDialog(props: { open: boolean; currentFolderId: string | null; onCancel(): void; onMove(targetId: string): Promise<void> }) {
  const { t } = useTranslation();
  const [tree, setTree] = useState<TreeNode[]>([]);
  const [expanded, setExpanded] = useState<React.Key[]>([ROOT_FOLDER_ID]);
  const [selected, setSelected] = useState<string>(ROOT_FOLDER_ID);
  const [busy, setBusy] = useState(false);
  const load = async (node: { key: React.Key }) => {
    const { subFolders } = await filesApi.folderList(String(node.key));
    const kids = subFolders.map((f) => ({ key: f.id, title: f.name, isLeaf: f.count === 0 }));
    const attach = (nodes: TreeNode[]): TreeNode[] => nodes.map((n) => (n.key === node.key ? { ...n, children: kids, isLeaf: kids.length === 0 } : n.children ? { ...n, children: attach(n.children) } : n));
    setTree((old) => attach(old));
  };
  // the root level is shown open at once; deeper levels load when expanded
  useEffect(() => {
    if (!props.open) return;
    setSelected(ROOT_FOLDER_ID);
    setExpanded([ROOT_FOLDER_ID]);
    setTree([{ key: ROOT_FOLDER_ID, title: t('move.root') }]);
    void load({ key: ROOT_FOLDER_ID }).catch((e) => message.error(e.message));
  }, [props.open]);
  const ok = async () => {
    if (selected === props.currentFolderId) {
      message.warning(t('move.sameFolder'));
      return;
    }
    setBusy(true);
    try {
      await props.onMove(selected);
    } catch (e) {
      message.error((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open={props.open} title={t('move.title')} onCancel={props.onCancel} onOk={ok} confirmLoading={busy} okText={t('common.ok')} cancelText={t('common.cancel')} destroyOnHidden>
      <div data-testid="move-tree" style={{ maxHeight: 360, overflow: 'auto' }}>
        <Tree.DirectoryTree treeData={tree} loadData={load} selectedKeys={[selected]} expandedKeys={expanded} onExpand={setExpanded} onSelect={(keys) => keys[0] !== undefined && setSelected(String(keys[0]))} expandAction="doubleClick" />
      </div>
    </Modal>
  );
}

/** Files and folders by button or by drag and drop; queued into the upload task list. */
export function UploadDialog(props: { open: boolean; parentId: string; uploadLimit: number; onClose(): void }) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const dirInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  // a chosen file whose name is a file here: new version, keep both or skip (asked before anything is sent)
  const conflicts = useUploadConflicts();

  const enqueue = async (list: { file: File; relativePath?: string }[]) => {
    const ok = list.filter((f) => {
      const problem = uploadProblem(f, props.uploadLimit, t);
      if (problem) message.error(problem);
      return !problem;
    });
    if (!ok.length) return;
    // a folder upload into a folder of the same name merges into it: say so before starting
    const tops = [...new Set(ok.map((f) => f.relativePath?.split('/')[0]).filter((n): n is string => !!n))];
    const repeats = (await Promise.all(tops.map((n) => filesApi.detectFolder(props.parentId, n).then((r) => (r.hasRepeat ? n : null), () => null)))).filter(Boolean);
    const start = async () => {
      const planned = await conflicts.plan(ok.map((f) => ({ file: f.file, name: f.file.name, relativePath: f.relativePath, parentId: props.parentId })), props.parentId);
      props.onClose();
      if (!planned.length) return;
      uploadQueue.add(planned);
      taskEvents.open('upload');
    };
    if (!repeats.length) return start();
    Modal.confirm({ title: t('upload.title'), content: t('upload.folderExists', { name: repeats.join(', ') }), okText: t('common.ok'), cancelText: t('common.cancel'), onOk: () => void start() });
  };
  const fromInput = (input: HTMLInputElement | null) => {
    const files = [...(input?.files ?? [])].map((file) => ({ file, relativePath: (file as File & { webkitRelativePath?: string }).webkitRelativePath || undefined }));
    if (input) input.value = '';
    void enqueue(files);
  };
  return (
    <Modal open={props.open} title={t('upload.title')} onCancel={props.onClose} footer={null} destroyOnHidden={false}>
      <div
        className={`drop-zone${over ? ' over' : ''}`}
        data-testid="drop-zone"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={async (e) => {
          e.preventDefault();
          setOver(false);
          void enqueue(await filesFromDrop(e.dataTransfer));
        }}
        onClick={() => fileInput.current?.click()}
      >
        <CloudUploadOutlined style={{ fontSize: 40, color: '#1677ff' }} />
        <p>{t('upload.drop')}</p>
        <small>{t('upload.hint', { size: formatSize(props.uploadLimit) })}</small>
      </div>
      <div style={{ display: 'flex', gap: 8, marginTop: 16, justifyContent: 'center', flexWrap: 'wrap' }}>
        <Button icon={<UploadOutlined />} onClick={() => fileInput.current?.click()}>{t('toolbar.uploadFiles')}</Button>
        <Button icon={<FolderAddOutlined />} onClick={() => dirInput.current?.click()}>{t('toolbar.uploadFolder')}</Button>
      </div>
      <input ref={fileInput} type="file" multiple hidden data-testid="file-input" onChange={() => fromInput(fileInput.current)} />
      <input ref={dirInput} type="file" multiple hidden data-testid="folder-input" {...({ webkitdirectory: '', directory: '' } as Record<string, string>)} onChange={() => fromInput(dirInput.current)} />
      {conflicts.element}
    </Modal>
  );
}
