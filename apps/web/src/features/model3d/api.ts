import { MODEL3D_PATHS, type Model3dStatus } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';

/** The spec's 3D calls (section 7), typed from the contracts. */
export const model3dApi = {
  /** converts (or, with isTransForm false, only asks) the files; allDone when every one is converted already */
  transform: (fileIds: string[]) => call<{ list: Model3dStatus[]; allDone: boolean }>(MODEL3D_PATHS.transformBatch3D, { fileIds, isTransForm: true }),
  status: (fileId: string) => call<Model3dStatus>(MODEL3D_PATHS.checkTaskStatus3D, { fileId }),
  statusBatch: (fileIds: string[]) => call<{ list: Model3dStatus[] }>(MODEL3D_PATHS.checkTaskStatusBatch3D, { fileIds }),
  remaining: (fileId?: string) => call<{ remaining: number | null; superMember: boolean }>(MODEL3D_PATHS.checkTransformSuplus3D, { fileId }),
};

/** the conversion progress is asked for again every 5 s */
export const MODEL3D_POLL_MS = 5000;
