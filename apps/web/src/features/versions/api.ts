import type { Version } from '@cadcloud/contracts';
import { call, postForZip, uploadMultipart } from '../../lib/api.ts';
import { saveUrl } from '../files/api.ts';

export type { Version };
export interface VersionPage {
  list: Version[];
  total: number;
  pageNo: number;
  pageSize: number;
  latestNumber: number;
  fileName: string;
  fileId: string;
}

/** Version history calls (spec section 7, "Versions"); see packages/contracts/src/versions.ts. */
export const versionsApi = {
  history: (o: { fileId: string; sourceName?: string; updateName?: string; pageNo?: number; pageSize?: number }) => call<VersionPage>('/cloud/v5/version/history', { pageNo: 1, pageSize: 20, ...o }),
  remove: (versionId: string) => call<{ deleted: number }>('/cloud/v5/version/delete', { versionId }),
  removeBatch: (versionIds: string[]) => call<{ deleted: number }>('/cloud/v5/version/deleteBatch', { versionIds }),
  updateRemark: (versionId: string, remark: string) => call<Version>('/cloud/v5/version/updateRemark', { versionId, remark }),
  back: (v: Version) => call<Version>('/cloud/v5/version/back', { versionId: v.versionId, relationId: v.fileId, relationType: 1 }),
  copy: (fileId: string, sourceFileId: string) => call<Version>('/cloud/v5/version/copy', { fileId, sourceFileId }),
  download: (versionId: string) => call<{ signedUrl: string; name: string }>('/cloud/v5/version/download', { versionId }),

  /** Multipart version/upload (one file) with progress. */
  upload: (fileId: string, file: File, onProgress: (pct: number) => void) => uploadMultipart<Version>('/cloud/v5/version/upload', { fileId }, file, onProgress),

  /** version/downloadBatchZip answers the zip itself: fetched as a blob and saved. */
  async downloadBatch(versionIds: string[]) {
    const { url, name } = await postForZip('/cloud/v5/version/downloadBatchZip', { versionIds }, 'versions.zip');
    saveUrl(url, name);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
};

/** Where a version opens: the viewer with the version's id. */
export const versionViewPath = (fileId: string, versionId: string) => `/yun/view/${encodeURIComponent(fileId)}?versionId=${encodeURIComponent(versionId)}`;
/** The compare page (built by the compare module) for two versions of one file. */
export const versionComparePath = (fileId: string, a: string, b: string) => `/yun/version/${encodeURIComponent(fileId)}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
