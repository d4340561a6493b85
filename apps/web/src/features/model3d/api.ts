import { MODEL3D_PATHS, type Model3dStatus, type Model3dTask, type RevitInfo3D } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

/** The spec's 3D calls (section 7), typed from the contracts. */
export const model3dApi = {
  /** converts (or, with isTransForm false, only asks) the files; allDone when every one is converted already */
  transform: (fileIds: string[]) => call<{ list: Model3dStatus[]; allDone: boolean }>(MODEL3D_PATHS.transformBatch3D, { fileIds, isTransForm: true }),
  status: (fileId: string) => call<Model3dStatus>(MODEL3D_PATHS.checkTaskStatus3D, { fileId }),
  statusBatch: (fileIds: string[]) => call<{ list: Model3dStatus[] }>(MODEL3D_PATHS.checkTaskStatusBatch3D, { fileIds }),
  /** the caller's 3D conversions, the latest of each file, newest first (the task panel's 3D tab) */
  list: (page = 1, pageSize = 50) => call<{ list: Model3dTask[]; total: number }>(MODEL3D_PATHS.list3D, { page, pageSize }),
  /** what a Revit file tells without its geometry (version, project information, the advice to export IFC) */
  revitInfo: (fileId: string) => call<RevitInfo3D>(MODEL3D_PATHS.revitInfo3D, { fileId }),
  remaining: (fileId?: string) => call<{ remaining: number | null; superMember: boolean }>(MODEL3D_PATHS.checkTransformSuplus3D, { fileId }),
};

/** the conversion progress is asked for again every 5 s */
export const MODEL3D_POLL_MS = 5000;
