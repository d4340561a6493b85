import { COMPARE_PATHS, RTN_NOT_SIGNED_IN, type CompareChangesResult } from '@cadcloud/contracts';
import { decodeScene, type Scene } from '@cadcloud/cad/scene';
import { ApiError, call, goToLogin } from '../../lib/api.ts';
import { currentLanguage } from '../../lib/i18n.ts';
import { clientType } from '../../lib/device.ts';

export type { CompareChangesResult };
export type CompareChange = CompareChangesResult['changes'][number];

export interface CompareQuery {
  fileId: string;
  a: string;
  b: string;
}

/**
 * The overlay's colours and scene layers, as the engine writes them (packages/cad/src/compare/overlay.ts; the web
 * imports only the browser-safe scene part of the engine). The compare browser test checks the drawn pixels.
 */
export const COMPARE_COLOURS = { added: '#52c41a', removed: '#ff4d4f', modified: '#fa8c16', unchanged: '#8c8c8c', before: '#8a3a3c' } as const;
export const COMPARE_LAYERS = { unchanged: 'compare:unchanged', removed: 'compare:removed', before: 'compare:before', modified: 'compare:modified', added: 'compare:added' } as const;

/** Drawing compare calls: the change list (call style 2) and the overlay scene (binary, or the error envelope). */
export const compareApi = {
  changes: (q: CompareQuery, layout = 'Model') => call<CompareChangesResult>(COMPARE_PATHS.changes, { ...q, layout }),

  async scene(q: CompareQuery, layout: string, onProgress?: (loaded: number, total: number) => void): Promise<Scene> {
    const url = `${COMPARE_PATHS.scene}?${new URLSearchParams({ ...q, layout, lang: currentLanguage() })}`;
    let res: Response;
    try {
      res = await fetch(url, { credentials: 'same-origin', headers: { 'x-client-type': clientType() } });
    } catch {
      throw new ApiError('100', 'Network Error!');
    }
    if (!(res.headers.get('content-type') ?? '').includes('cadcloud.scene')) {
      const body = await res.json().catch(() => null);
      if (body?.rtnCode === RTN_NOT_SIGNED_IN) goToLogin();
      throw new ApiError(String(body?.rtnCode ?? res.status), body?.msg ?? 'Network Error!', body?.bizData?.code);
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    onProgress?.(bytes.length, bytes.length);
    return decodeScene(bytes);
  },
};
