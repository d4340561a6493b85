import type { Font } from '@cadcloud/contracts';
import { ApiError, call, clientInfo, goToLogin } from '../../lib/api.ts';
import { saveUrl } from '../files/api.ts';

export type { Font };
export interface FontPage {
  fontsList: Font[];
  total: number;
}

/** The font library calls (spec section 7, "Fonts (signed)"); deleting goes through union/delete with fontIds. */
export const fontsApi = {
  /** Section 7: a non-success answer shows an empty list with total 0 (the caller still gets the error to toast). */
  list: (o: { startIndex?: number; maxCount?: number; deleted?: boolean } = {}) => call<FontPage>('/cloud/v5/font/list', { startIndex: o.startIndex ?? 0, maxCount: o.maxCount ?? 1000, delete: o.deleted ? 1 : 0 }),
  rename: (id: string, name: string) => call<Font>('/cloud/v5/font/rename', { id, name }),
  edit: (id: string, o: { name: string; codepage: number; bold: boolean; italic: boolean }) => call<Font>('/cloud/v5/font/edit', { id, ...o }),
  setPublic: (id: string, ispublic: boolean) => call<Font>('/cloud/v5/font/public', { id, ispublic: ispublic ? 1 : 0 }),
  download: (id: string) => call<{ signedUrl: string; name: string }>('/cloud/v5/font/download', { id }),
  remove: (fontIds: string[], deleteLevel: 0 | 1 = 0) => call<{ deleted: number }>('/cloud/v5/union/delete', { deleteLevel, fontIds }),
  restore: (ids: string[]) => call<{ restored: number }>('/cloud/v5/font/restore', { ids }),

  /** Multipart upload (call style 5) with progress (fetch has no upload progress). */
  upload(file: File, onProgress: (pct: number) => void): Promise<Font> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('POST', '/cloud/v5/font/upload');
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
      form.append('filedata', file, file.name);
      xhr.send(form);
    });
  },

  /** font/downloadBatch answers the zip itself (call style 7): fetched as a blob and saved. */
  async downloadBatch(ids: string[]) {
    let res: Response;
    try {
      res = await fetch('/cloud/v5/font/downloadBatch', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { ids }, clientInfo: clientInfo() }), credentials: 'same-origin' });
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
    saveUrl(url, name ? decodeURIComponent(name) : 'fonts.zip');
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
};
