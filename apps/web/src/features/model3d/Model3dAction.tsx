import { useEffect, useState } from 'react';
import { Button, Progress, Tooltip } from 'antd';
import { BlockOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { TransformStatus, typeGroupOf, view3dHref, type Model3dStatus } from '@cadcloud/contracts';
import { taskEvents } from '../tasks/task-events.ts';
import { model3dApi, MODEL3D_POLL_MS } from './api.ts';
import { model3dTaskEvents } from './use-model3d-tasks.ts';
import { isRevit } from './RevitInfo.tsx';

type File3d = { id: string; name: string; fileType: number; transformStatus?: number | null };

const ext = (name: string) => (name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '');
/** A file of the 3D group (spec section 5): converted to a GLB and opened at /view3d. */
export const is3d = (i: { fileType: number; name: string }) => i.fileType === 1 && typeGroupOf(ext(i.name)) === 'threeD';
/**
 * A drawing whose 3D solids convert when the user asks (the toolbar's Convert to 3D); opening it still shows the 2D
 * viewer.
 */
export const isDrawing3d = (i: { fileType: number; name: string }) => i.fileType === 1 && ['dwg', 'dwt', 'dxf'].includes(ext(i.name).toLowerCase());

/** What the drive says after a 3D conversion request (the toasts go through antd's `message` of the caller). */
export interface Notify {
  info(text: string): void;
  warning(text: string): void;
  error(text: string): void;
}

/**
 * Converts or opens 3D files (spec section 4): while one of them converts, "There are 3D models being converting,
 * please select again"; when the answer says every one is converted, the first opens in the viewer in a new tab;
 * otherwise "added to the conversion list" and the task panel opens on its 3D tab showing the conversion. The server's messages (trials used up,
 * membership needed) are shown as they are. True when a conversion started.
 */
export async function convertOrOpen3d(files: File3d[], notify: Notify, t: (k: string) => string, openTab: (href: string) => unknown = (href) => window.open(href, '_blank')): Promise<boolean> {
  if (files.some((f) => f.transformStatus === TransformStatus.IN_TRANSFORM)) {
    notify.warning(t('model3d.busy'));
    return false;
  }
  // a Revit file converts to nothing: the viewer's tab shows what it tells of itself (RevitInfo.tsx)
  if (files.length === 1 && isRevit(files[0].name)) {
    openTab(view3dHref(files[0].id));
    return false;
  }
  try {
    const r = await model3dApi.transform(files.map((f) => f.id));
    if (r.allDone) {
      openTab(view3dHref(files[0].id));
      return false;
    }
    notify.info(t('model3d.queued'));
    // the conversion list shows it: the task panel on its 3D tab (the lists on /…/transformer look again)
    model3dTaskEvents.changed();
    taskEvents.open('model3d');
    return true;
  } catch (e) {
    notify.error((e as Error).message);
    return false;
  }
}

/** The drive's *Convert to 3D* / *Open 3D* button for the chosen files when they are all 3D models or drawings. */
export function Model3dButton({ items, notify, onStarted, block }: { items: File3d[]; notify: Notify; onStarted(): void; block?: boolean }) {
  const { t } = useTranslation('model3d');
  if (!items.length || !items.every((i) => is3d(i) || isDrawing3d(i))) return null;
  // a drawing's status may be a 2D conversion's: the server answers whether its 3D model is there (allDone)
  const done = items.every((i) => is3d(i) && i.transformStatus === TransformStatus.SUCCESS_TRANSFORM);
  return (
    <Button block={block} icon={<BlockOutlined />} data-testid="btn-model3d" onClick={async () => (await convertOrOpen3d(items, notify, t)) && onStarted()}>
      {items.length === 1 && isRevit(items[0].name) ? t('model3d.revit.open') : done ? t('model3d.open') : t('model3d.convert')}
    </Button>
  );
}

/**
 * The conversions of the listed 3D files that are converting, asked for every 5 s (checkTaskStatusBatch3D), by file id:
 * the drive shows each one's progress beside its name.
 */
export function useModel3dProgress(items: File3d[]): Map<string, Model3dStatus> {
  const ids = items.filter((i) => is3d(i) && i.transformStatus === TransformStatus.IN_TRANSFORM).map((i) => i.id);
  const key = ids.join(',');
  const [byId, setById] = useState<Map<string, Model3dStatus>>(new Map());
  useEffect(() => {
    if (!key) return setById(new Map());
    const look = () => model3dApi.statusBatch(key.split(',')).then((r) => setById(new Map(r.list.map((x) => [x.fileId, x]))), () => undefined);
    void look();
    const timer = setInterval(look, MODEL3D_POLL_MS);
    return () => clearInterval(timer);
  }, [key]);
  return byId;
}

/** A converting 3D file's progress, beside its name in the list. */
export function Model3dProgress({ status }: { status: Model3dStatus | undefined }) {
  const { t } = useTranslation('model3d');
  if (!status || status.transformStatus !== TransformStatus.IN_TRANSFORM) return null;
  return (
    <Tooltip title={t('model3d.converting', { progress: status.progress })}>
      <span data-testid={`model3d-progress-${status.name}`} data-progress={status.progress} style={{ marginLeft: 6, display: 'inline-flex', verticalAlign: 'middle' }}>
        <Progress type="circle" size={18} percent={status.progress} status="active" />
      </span>
    </Tooltip>
  );
}
