import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, List, Progress, Space } from 'antd';
import { FolderAddOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ROOT_FOLDER_ID } from '@cadcloud/contracts';
import { uploadQueue, uploadProblem } from '../../features/uploads/uploads.ts';
import { useUploadLimit } from '../../features/files/use-config.ts';
import { filesApi } from '../../features/files/api.ts';
import { useUploadConflicts } from '../../features/uploads/ConflictDialog.tsx';
import { message } from 'antd';

/** Mobile upload: pick files or a folder; the list shows each upload's progress. */
export function H5Upload() {
  const { t } = useTranslation();
  const files = useRef<HTMLInputElement>(null);
  const dir = useRef<HTMLInputElement>(null);
  const entries = useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot);
  const limit = useUploadLimit();
  // opened from a folder of the cloud tab (?folderId=): uploads go there, otherwise to the top level
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const parentId = params.get('folderId') ?? ROOT_FOLDER_ID;
  const [target, setTarget] = useState<string>('');
  useEffect(() => {
    if (parentId === ROOT_FOLDER_ID) return setTarget('');
    filesApi.parentPath(parentId).then((r) => setTarget(r.list.map((f) => f.name).join(' / ')), () => setTarget(''));
  }, [parentId]);
  // a chosen file whose name is a file in the folder: new version, keep both or skip
  const conflicts = useUploadConflicts({ open: (item) => navigate(`/webH5/item/${item.id}`) });
  const add = async (input: HTMLInputElement | null) => {
    const chosen = [...(input?.files ?? [])].map((file) => ({ file, relativePath: (file as File & { webkitRelativePath?: string }).webkitRelativePath || undefined }));
    const list = chosen.filter((f) => {
      const problem = uploadProblem(f, limit, t);
      if (problem) message.error(problem);
      return !problem;
    });
    if (input) input.value = '';
    const planned = await conflicts.plan(list.map((f) => ({ file: f.file, name: f.file.name, relativePath: f.relativePath, parentId })), parentId);
    if (planned.length) uploadQueue.add(planned);
  };
  return (
    <div>
      <h2 className="h5-title">{t('upload.title')}</h2>
      <div className="h5-target" data-testid="h5-upload-target">{t('upload.target', { folder: target || t('breadcrumb.root') })}</div>
      <Space direction="vertical" style={{ width: '100%' }}>
        <Button block type="primary" size="large" icon={<UploadOutlined />} onClick={() => files.current?.click()}>{t('toolbar.uploadFiles')}</Button>
        <Button block size="large" icon={<FolderAddOutlined />} onClick={() => dir.current?.click()}>{t('toolbar.uploadFolder')}</Button>
      </Space>
      <input ref={files} type="file" multiple hidden data-testid="h5-file-input" onChange={() => void add(files.current)} />
      <input ref={dir} type="file" multiple hidden {...({ webkitdirectory: '' } as Record<string, string>)} onChange={() => void add(dir.current)} />
      <List
        style={{ marginTop: 16 }}
        dataSource={[...entries]}
        locale={{ emptyText: t('tasks.empty') }}
        renderItem={(u) => (
          <List.Item data-testid="h5-upload-row" data-status={u.status}>
            <div style={{ width: '100%' }}>
              <div className="ellipsis">{u.relativePath ?? u.name}</div>
              <Progress percent={Math.floor((u.loaded / Math.max(1, u.size)) * 100)} size="small" status={u.status === 'failed' ? 'exception' : u.status === 'success' || u.status === 'instant' ? 'success' : 'active'} />
              <small>{t(`status.${u.status}`)}{u.error ? ` · ${u.error}` : ''}</small>
            </div>
          </List.Item>
        )}
      />
      {entries.length > 0 && <Button onClick={() => uploadQueue.clearFinished()}>{t('tasks.clear')}</Button>}
      {conflicts.element}
    </div>
  );
}
