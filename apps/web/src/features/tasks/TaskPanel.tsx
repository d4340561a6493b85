import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { Badge, Button, Empty, List, Progress, Tabs, Typography, message } from 'antd';
import { CloseOutlined, DownOutlined, UpOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TaskStatus } from '@cadcloud/contracts';
import { formatSize } from '../../lib/format.ts';
import { uploadQueue } from '../uploads/uploads.ts';
import type { UploadEntry } from '../uploads/upload-queue.ts';
import { downloadsApi, type ZipTask } from './downloads.ts';
import { saveUrl } from '../files/api.ts';
import { taskEvents } from './task-events.ts';
import { ConversionRows } from '../conversions/ConversionRows.tsx';
import { useConversions } from '../conversions/use-conversions.ts';
import { UnzipRows } from '../unzip/UnzipRows.tsx';
import { useUnzipTasks } from '../unzip/use-unzip-tasks.ts';
import { Model3dRows } from '../model3d/Model3dRows.tsx';
import { useModel3dTasks } from '../model3d/use-model3d-tasks.ts';

export type TaskTab = 'upload' | 'download' | 'unzip' | 'convert' | 'model3d';

/** The tab to show when the panel opens: the first one that has something in it. */
export function firstNonEmptyTab(counts: Partial<Record<TaskTab, number>>): TaskTab {
  return (['upload', 'download', 'unzip', 'convert', 'model3d'] as const).find((t) => (counts[t] ?? 0) > 0) ?? 'upload';
}

const POLL_MS = 5000;

/** Opens the panel the first time tasks of a kind are seen running while it is closed (once per page visit). */
function useShowWhenRunning(running: boolean, open: boolean, show: () => void) {
  const shown = useRef(false);
  useEffect(() => {
    if (running && !open && !shown.current) {
      shown.current = true;
      show();
    }
  }, [running]);
}

export function TaskPanel() {
  const { t } = useTranslation();
  const uploads = useSyncExternalStore(uploadQueue.subscribe, uploadQueue.getSnapshot);
  const [zips, setZips] = useState<ZipTask[]>([]);
  const [open, setOpen] = useState(false);
  const [expanded, setExpanded] = useState(true);
  const [tab, setTab] = useState<TaskTab>('upload');
  // conversions (issue 17): their own tab, polled every 5 s while one converts (use-conversions.ts)
  const conversions = useConversions();
  const conversionsRef = useRef(conversions.list);
  conversionsRef.current = conversions.list;
  // decompressions (issue 18): polled every 5 s while one waits or unpacks (use-unzip-tasks.ts)
  const unzips = useUnzipTasks();
  const unzipsRef = useRef(unzips.list);
  unzipsRef.current = unzips.list;
  // 3D conversions (issue 21): polled every 5 s while one converts (use-model3d-tasks.ts)
  const models = useModel3dTasks();
  const modelsRef = useRef(models.list);
  modelsRef.current = models.list;

  const refreshZips = () =>
    downloadsApi.list().then(
      (r) => {
        setZips(r.list);
        return r.list;
      },
      () => zipsRef.current,
    );
  const zipsRef = useRef<ZipTask[]>([]);
  zipsRef.current = zips;
  const uploadsRef = useRef(uploads);
  uploadsRef.current = uploads;
  const show = (kind: TaskTab | undefined, zipList: ZipTask[]) => {
    setOpen(true);
    setExpanded(true);
    setTab(kind ?? firstNonEmptyTab({ upload: uploadsRef.current.length, download: zipList.length, unzip: unzipsRef.current.length, convert: conversionsRef.current.length, model3d: modelsRef.current.length }));
  };
  useEffect(() => {
    // zips still being prepared from an earlier visit: show them
    void refreshZips().then((list) => {
      if (list.some((z) => z.status === TaskStatus.BEFORE || z.status === TaskStatus.IN)) show(undefined, list);
    });
    return taskEvents.subscribe((kind) => {
      if (kind === 'convert') void conversions.refresh().then(() => show(kind, zipsRef.current));
      else if (kind === 'unzip') void unzips.refresh().then(() => show(kind, zipsRef.current));
      else if (kind === 'model3d') void models.refresh().then(() => show(kind, zipsRef.current));
      else if (kind === 'download' || !kind) void refreshZips().then((list) => show(kind, list));
      else show(kind, zipsRef.current);
    });
  }, []);
  // poll while a zip is being prepared (spec polling constant 5000 ms)
  useEffect(() => {
    if (!zips.some((z) => z.status === TaskStatus.BEFORE || z.status === TaskStatus.IN)) return;
    const timer = setInterval(refreshZips, POLL_MS);
    return () => clearInterval(timer);
  }, [zips]);
  useEffect(() => {
    if (uploads.length && !open) {
      setOpen(true);
      setTab(firstNonEmptyTab({ upload: uploads.length, download: zips.length, unzip: unzips.list.length, convert: conversions.list.length, model3d: models.list.length }));
    }
  }, [uploads.length]);
  // conversions, decompressions and 3D conversions still running from an earlier visit: show them
  useShowWhenRunning(conversions.running, open, () => show(undefined, zipsRef.current));
  useShowWhenRunning(unzips.running, open, () => show(undefined, zipsRef.current));
  useShowWhenRunning(models.running, open, () => show(undefined, zipsRef.current));

  // the open panel sits over the right of the page: the file list makes room for it (styles.css), so the size and
  // date columns stay visible
  useEffect(() => {
    document.body.classList.toggle('task-panel-open', open);
    return () => document.body.classList.remove('task-panel-open');
  }, [open]);

  if (!open) return null;
  const running = uploads.filter((u) => u.status === 'uploading' || u.status === 'hashing' || u.status === 'waiting').length;

  const uploadStatus = (u: UploadEntry) => {
    if (u.status === 'failed') return <Typography.Text type="danger">{u.error ?? t('status.failed')}</Typography.Text>;
    return <Typography.Text type={u.status === 'success' || u.status === 'instant' ? 'success' : 'secondary'}>{t(`status.${u.status}`)}</Typography.Text>;
  };

  return (
    <div className="task-panel" data-testid="task-panel">
      <div className="task-panel-head">
        <strong>{t('tasks.title')}</strong>
        {running > 0 && <Badge count={running} style={{ marginLeft: 8 }} />}
        <span style={{ flex: 1 }} />
        <Button size="small" type="text" icon={expanded ? <DownOutlined /> : <UpOutlined />} onClick={() => setExpanded(!expanded)} aria-label="toggle" />
        <Button size="small" type="text" icon={<CloseOutlined />} onClick={() => setOpen(false)} aria-label="close" />
      </div>
      {expanded && (
        <Tabs
          size="small"
          activeKey={tab}
          onChange={(k) => setTab(k as TaskTab)}
          tabBarExtraContent={tab === 'upload' && <Button size="small" onClick={() => uploadQueue.clearFinished()}>{t('tasks.clear')}</Button>}
          items={[
            {
              key: 'upload',
              label: t('tasks.upload'),
              children: uploads.length ? (
                <List
                  size="small"
                  className="task-list"
                  dataSource={[...uploads]}
                  renderItem={(u) => (
                    <List.Item data-testid="upload-row" data-status={u.status} extra={u.status === 'failed' && <Button size="small" onClick={() => uploadQueue.retry(u.id)}>{t('status.retry')}</Button>}>
                      <div style={{ width: '100%', minWidth: 0 }}>
                        <div className="ellipsis" title={u.relativePath ?? u.name}>{u.relativePath ?? u.name}</div>
                        <Progress percent={Math.floor((u.loaded / Math.max(1, u.size)) * 100)} size="small" status={u.status === 'failed' ? 'exception' : u.status === 'success' || u.status === 'instant' ? 'success' : 'active'} />
                        <small>{formatSize(u.size)} · {uploadStatus(u)}</small>
                      </div>
                    </List.Item>
                  )}
                />
              ) : (
                <Empty description={t('tasks.empty')} />
              ),
            },
            {
              key: 'download',
              label: t('tasks.download'),
              children: zips.length ? (
                <List
                  size="small"
                  className="task-list"
                  dataSource={zips}
                  renderItem={(z) => (
                    <List.Item
                      data-testid="zip-row"
                      extra={
                        z.status === TaskStatus.SUCCESS ? (
                          <Button size="small" type="primary" data-testid="zip-save" onClick={() => downloadsApi.tempUrl(z.taskId).then((r) => saveUrl(r.signedUrl, r.name), (e) => message.error(e.message))}>{t('dl.save')}</Button>
                        ) : (
                          <Button size="small" onClick={() => downloadsApi.cancel(z.taskId).then(refreshZips)}>{t('dl.cancel')}</Button>
                        )
                      }
                    >
                      <div style={{ width: '100%', minWidth: 0 }}>
                        <div className="ellipsis">{z.name}</div>
                        <Progress percent={z.progress} size="small" status={z.status === TaskStatus.FAIL ? 'exception' : z.status === TaskStatus.SUCCESS ? 'success' : 'active'} />
                        <small>{z.status === TaskStatus.SUCCESS ? t('dl.ready') : z.status === TaskStatus.FAIL ? t('dl.failed') : t('dl.preparing')}{z.size ? ` · ${formatSize(z.size)}` : ''}</small>
                      </div>
                    </List.Item>
                  )}
                />
              ) : (
                <Empty description={t('tasks.empty')} />
              ),
            },
            { key: 'unzip', label: <span data-testid="tab-unzip">{t('tasks.unzip')}</span>, children: <UnzipRows list={unzips.list} /> },
            { key: 'convert', label: <span data-testid="tab-convert">{t('tasks.convert', { ns: 'conversions' })}</span>, children: <ConversionRows list={conversions.list} onRetry={conversions.retry} /> },
            { key: 'model3d', label: <span data-testid="tab-model3d">{t('tasks.tab', { ns: 'model3dTasks' })}</span>, children: <Model3dRows list={models.list} onRetry={models.retry} /> },
          ]}
        />
      )}
    </div>
  );
}
