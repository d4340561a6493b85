import type { Font } from '@cadcloud/contracts';
import { call, postForZip, uploadMultipart } from '../../lib/api.ts';
import { secureCall } from '../../lib/signed-api.ts';
import { saveUrl } from '../files/api.ts';

export type { Font };
export interface FontPage {
  fontsList: Font[];
  total: number;
}

/**
 * The font library calls (spec section 7, "Fonts (signed)"): list, rename, edit, public, download and restore go as
 * call style 3 (lib/signed-api.ts); deleting goes through union/delete with fontIds, upload and the zip as styles 5 and 7.
 */
export const fontsApi = {
  /** Section 7: a non-success answer shows an empty list with total 0 (the caller still gets the error to toast). */
  list: (o: { startIndex?: number; maxCount?: number; deleted?: boolean } = {}) => secureCall<FontPage>('/cloud/v5/font/list', { startIndex: o.startIndex ?? 0, maxCount: o.maxCount ?? 1000, delete: o.deleted ? 1 : 0 }),
  rename: (id: string, name: string) => secureCall<Font>('/cloud/v5/font/rename', { id, name }),
  edit: (id: string, o: { name: string; codepage: number; bold: boolean; italic: boolean }) => secureCall<Font>('/cloud/v5/font/edit', { id, ...o }),
  setPublic: (id: string, ispublic: boolean) => secureCall<Font>('/cloud/v5/font/public', { id, ispublic: ispublic ? 1 : 0 }),
  download: (id: string) => secureCall<{ signedUrl: string; name: string }>('/cloud/v5/font/download', { id }),
  remove: (fontIds: string[], deleteLevel: 0 | 1 = 0) => call<{ deleted: number }>('/cloud/v5/union/delete', { deleteLevel, fontIds }),
  restore: (ids: string[]) => secureCall<{ restored: number }>('/cloud/v5/font/restore', { ids }),

  /** Multipart upload (call style 5) with progress. */
  upload: (file: File, onProgress: (pct: number) => void) => uploadMultipart<Font>('/cloud/v5/font/upload', {}, file, onProgress),

  /** font/downloadBatch answers the zip itself (call style 7): fetched as a blob and saved. */
  async downloadBatch(ids: string[]) {
    const { url, name } = await postForZip('/cloud/v5/font/downloadBatch', { ids }, 'fonts.zip');
    saveUrl(url, name);
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  },
};
