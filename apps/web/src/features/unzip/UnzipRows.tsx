import { useState } from 'react';
import { Button, Empty, List, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TaskStatus } from '@cadcloud/contracts';
import { formatSize } from '../../lib/format.ts';
import { errorText, folderPath, isRunning, unzipApi, unzipEvents, type UnzipTask } from './api.ts';
import { useDecompress } from './Decompress.tsx';

const percent = (task: UnzipTask) => {
  const u = task.unzip;
  if (task.status === TaskStatus.SUCCESS) return 100;
  if (u?.bytesTotal) return Math.floor((u.bytesDone / u.bytesTotal) * 100);
  if (u?.entriesTotal) return Math.floor((u.entriesDone / u.entriesTotal) * 100);
  return task.progress;
};

function Reports({ task }: { task: UnzipTask }) {
  const { t } = useTranslation('unzip');
  const [open, setOpen] = useState(false);
  const reports = task.unzip?.reports ?? [];
  if (!reports.length) return null;
  return (
    <div>
      <Typography.Link onClick={() => setOpen(!open)} data-testid="unzip-reports-toggle">{t('unzip.reports', { count: reports.length })}</Typography.Link>
      {open && (
        <ul className="unzip-reports" data-testid="unzip-reports">
          {reports.map((r, n) => (
            <li key={n}>
              {r.action === 'renamed' && r.to ? t('unzip.report.renamed', { name: r.name, to: r.to }) : t('unzip.report.refused', { name: r.name })} <Typography.Text type="secondary">({t(`unzip.reason.${r.reason}`)})</Typography.Text>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * Decompressions as rows (the task panel's unzip tab; a phone's archive page): the status in the spec's words
 * (waiting, unpacking, successful, failed, password-protected, wrong password), progress in entries and bytes,
 * cancel while unfinished; the folder to open when done; the server's message when failed; the password to enter
 * when the task waits for one; names that were changed or refused.
 */
export function UnzipRows({ list }: { list: UnzipTask[] }) {
  const { t } = useTranslation('unzip');
  const navigate = useNavigate();
  const decompress = useDecompress();
  if (!list.length) return <Empty description={t('tasks.empty', { ns: 'web' })} />;
  const cancel = (task: UnzipTask) => unzipApi.cancel(task.taskId).then(unzipEvents.changed, unzipEvents.changed);
  return (
    <>
      <List
        size="small"
        className="task-list"
        dataSource={list}
        renderItem={(task) => {
          const u = task.unzip;
          const waitsForPassword = task.status === TaskStatus.PASSWORD_ERR || task.status === TaskStatus.PASSWORD_LOADING;
          const failure = task.status === TaskStatus.FAIL && task.response ? errorText(task.response, u?.responseArgs) : null;
          return (
            <List.Item
              data-testid="unzip-row"
              data-status={task.status}
              extra={
                <Space size={4} wrap>
                  {task.status === TaskStatus.SUCCESS && u?.folderId && <Button size="small" type="primary" data-testid="unzip-open" onClick={() => navigate(folderPath(u.folderId!))}>{t('unzip.openFolder')}</Button>}
                  {waitsForPassword && u && <Button size="small" type="primary" data-testid="unzip-enter-password" onClick={() => decompress.askPassword({ id: u.fileId, name: task.name }, task.status === TaskStatus.PASSWORD_ERR)}>{t('unzip.password.enter')}</Button>}
                  {(isRunning(task) || waitsForPassword) && <Button size="small" data-testid="unzip-cancel" onClick={() => void cancel(task)}>{t('unzip.cancel')}</Button>}
                </Space>
              }
            >
              <div style={{ width: '100%', minWidth: 0 }}>
                <div className="ellipsis" title={task.name}>{task.name}</div>
                <Progress percent={percent(task)} size="small" status={task.status === TaskStatus.FAIL || task.status === TaskStatus.PASSWORD_ERR ? 'exception' : task.status === TaskStatus.SUCCESS ? 'success' : isRunning(task) ? 'active' : 'normal'} />
                <small data-testid="unzip-state">
                  {t(`unzip.state.${task.status}`)}
                  {u && u.entriesTotal > 0 ? ` · ${t('unzip.entries', { done: u.entriesDone, total: u.entriesTotal })}` : ''}
                  {u && u.bytesTotal > 0 ? ` · ${formatSize(u.bytesDone)} / ${formatSize(u.bytesTotal)}` : ''}
                </small>
                {failure && (
                  <div>
                    <Typography.Text type="danger" data-testid="unzip-error">{failure}</Typography.Text>
                  </div>
                )}
                {task.status === TaskStatus.PASSWORD_ERR && (
                  <div>
                    <Typography.Text type="danger">{errorText('unzip.wrongPassword')}</Typography.Text>
                  </div>
                )}
                <Reports task={task} />
              </div>
            </List.Item>
          );
        }}
      />
      {decompress.dialogs}
    </>
  );
}
