import type { Version } from '@cadcloud/contracts';
import { ApiError, call, clientInfo, goToLogin } from '../../lib/api.ts';
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
  upload(fileId: string, file: File, onProgress: (pct: number) => void): Promise<Version> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/cloud/v5/version/upload');
      xhr.setRequestHeader('accept-language', clientInfo().language);
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.round((e.loaded / e.total) * 100));
      xhr.onload = () => {
        try {
          const body = JSON.parse(xhr.responseText);
          if (body.rtnCode === '0000000') {
            onProgress(100);
            resolve(body.bizData);
          } else {
            if (body.rtnCode === '101') goToLogin();
            reject(new ApiError(body.rtnCode, body.msg, body.bizData?.code));
          }
        } catch {
          reject(new ApiError(String(xhr.status), 'Network Error!'));
        }
      };
      xhr.onerror = () => reject(new ApiError('100', 'Network Error!'));
      const form = new FormData();
      form.append('fileId', fileId);
      form.append('filedata', file, file.name);
      xhr.send(form);
    });
  },

  /** version/downloadBatchZip answers the zip itself: fetched as a blob and saved. */
  async downloadBatch(versionIds: string[]) {
    let res: Response;
    try {
      res = await fetch('/cloud/v5/version/downloadBatchZip', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { versionIds }, clientInfo: clientInfo() }), credentials: 'same-origin' });
    } catch {
      throw new ApiError('100', 'Network Error!');
    }
    if (!(res.headers.get('content-type') ?? '').includes('application/zip')) {
      const body = await res.json().catch(() => null);
      if (body?.rtnCode === '101') goToLogin();
      throw new ApiError(body?.rtnCode ?? String(res.status), body?.msg ?? 'Network Error!', body?.bizData?.code);
    }
    const name = /filename\*=UTF-8''([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1];
    const url = URL.createObjectURL(await res.blob());
    saveUrl(url, name ? decodeURIComponent(name) : 'versions.zip');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
};

/** Where a version opens: the viewer with the version's id. */
export const versionViewPath = (fileId: string, versionId: string) => `/yun/view/${encodeURIComponent(fileId)}?versionId=${encodeURIComponent(versionId)}`;
/** The compare page (built by the compare module) for two versions of one file. */
export const versionComparePath = (fileId: string, a: string, b: string) => `/yun/version/${encodeURIComponent(fileId)}/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
