// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { encodeScene, type Scene } from '@cadcloud/cad/scene';

vi.mock('../../lib/api.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), goToLogin: vi.fn() }));

const { loadScene, prefetchSceneFor } = await import('./scene-api.ts');
const { goToLogin } = await import('../../lib/api.ts');

/** The inline script of index.html that asks for a drawing link's scene before any bundle loads. */
const html = readFileSync(path.resolve(import.meta.dirname, '../../../index.html'), 'utf8');
const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]).find((s) => s.includes('__cadScene'))!;

/** A real (empty) scene whose layout name tells the answers apart. */
function sceneAnswer(tag: number[]) {
  const none = { linePositions: new Float32Array(0), lineSegmentColors: new Uint8Array(0), lineEntityRuns: new Uint32Array(0), lineWeights: new Uint8Array(0), triPositions: new Float32Array(0), triangleColors: new Uint8Array(0), triEntityRuns: new Uint32Array(0), glyphLinePositions: new Float32Array(0), glyphTriPositions: new Float32Array(0), glyphInstances: new Float32Array(0), glyphInstanceEntities: new Uint32Array(0), curves: new Float32Array(0), curveEntities: new Uint32Array(0), blockLinePositions: new Float32Array(0), blockLineColors: new Uint8Array(0), blockLineLayers: new Uint32Array(0), blockLineWeights: new Uint8Array(0), blockTriPositions: new Float32Array(0), blockTriColors: new Uint8Array(0), blockTriLayers: new Uint32Array(0), blockInstances: new Float32Array(0), blockInstanceEntities: new Uint32Array(0) };
  const meta = { format: 1 as const, layout: tag.join(','), layouts: [], units: 0, bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 }, origin: [0, 0] as [number, number], layers: [], lineRanges: [], triRanges: [], entities: [], texts: [], notDrawn: {} };
  const bytes = encodeScene({ meta, ...none } as unknown as Scene);
  return new Response(bytes as Uint8Array<ArrayBuffer>, { headers: { 'content-type': 'application/vnd.cadcloud.scene', 'content-length': String(bytes.length) } });
}
const tagOf = async (s: Promise<{ meta: { layout: string } }>) => ({ bytes: (await s).meta.layout.split(',').map(Number) });

describe('scene request started by index.html, taken over by the viewer', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (window as { __cadScene?: unknown }).__cadScene;
  });
  const boot = (url: string) => {
    window.history.replaceState(null, '', url);
    // eslint-disable-next-line no-new-func
    new Function(inline)();
    prefetchSceneFor(window.location.pathname);
  };

  it('asks for the Model scene of /yun/view/{id} once, in the saved language, and the viewer gets that answer', async () => {
    localStorage.setItem('cadcloud.lang', 'ko');
    fetchMock.mockResolvedValueOnce(sceneAnswer([1, 2, 3]));
    boot('/yun/view/f%201');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/cloud/v5/drawing/scene?fileId=f%201&layout=Model&lang=ko');
    expect(init).toMatchObject({ credentials: 'same-origin', headers: { 'x-client-type': 'Web_PC' } });
    expect(await tagOf(loadScene('f 1', 'Model'))).toEqual({ bytes: [1, 2, 3] });
    expect(fetchMock).toHaveBeenCalledTimes(1); // taken over, not asked again
    // taken once: opening the same drawing again is a new request
    fetchMock.mockResolvedValueOnce(sceneAnswer([4]));
    expect(await tagOf(loadScene('f 1', 'Model'))).toEqual({ bytes: [4] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('an earlier version (?versionId=) is asked for with its id and used only for that version; phone pages say Web_H5', async () => {
    fetchMock.mockResolvedValueOnce(sceneAnswer([7]));
    boot('/webH5/item/abc?versionId=v2');
    expect(fetchMock.mock.calls[0][0]).toBe('/cloud/v5/drawing/scene?fileId=abc&layout=Model&lang=zh&versionId=v2');
    expect(fetchMock.mock.calls[0][1].headers['x-client-type']).toBe('Web_H5');
    // the current version or another layout is not what was prefetched
    fetchMock.mockResolvedValueOnce(sceneAnswer([8]));
    expect(await tagOf(loadScene('abc', 'Model'))).toEqual({ bytes: [8] });
    fetchMock.mockResolvedValueOnce(sceneAnswer([9]));
    expect(await tagOf(loadScene('abc', 'Layout1', undefined, { versionId: 'v2' }))).toEqual({ bytes: [9] });
    expect(await tagOf(loadScene('abc', 'Model', undefined, { versionId: 'v2' }))).toEqual({ bytes: [7] });
  });

  it('other pages ask for nothing', () => {
    boot('/yun/recent');
    boot('/share/xyz/view/abc');
    expect(fetchMock).not.toHaveBeenCalled();
    expect((window as { __cadScene?: unknown }).__cadScene).toBeUndefined();
  });

  it("a share's drawing (/share/{rand}/view/{id} and the other share pages) is asked for with the tab's share token, and taken only with that token", async () => {
    const session = (token: string, expiresAt: number | null) => JSON.stringify({ shareToken: token, rights: { canDownload: true }, share: { expiresAt } });
    sessionStorage.setItem('cadcloud.share.xyz', session('tok/1', null));
    fetchMock.mockResolvedValueOnce(sceneAnswer([5]));
    boot('/share/xyz/view/abc');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0][0]).toBe('/cloud/v5/drawing/scene?fileId=abc&layout=Model&lang=zh&shareToken=tok%2F1');
    expect(fetchMock.mock.calls[0][1].headers['x-client-type']).toBe('Web_PC');
    // the owner's open of the same file, or another share's, is not what the share's token was granted
    fetchMock.mockResolvedValueOnce(sceneAnswer([6]));
    expect(await tagOf(loadScene('abc', 'Model'))).toEqual({ bytes: [6] });
    fetchMock.mockResolvedValueOnce(sceneAnswer([7]));
    expect(await tagOf(loadScene('abc', 'Model', undefined, { shareToken: 'other' }))).toEqual({ bytes: [7] });
    expect(await tagOf(loadScene('abc', 'Model', undefined, { shareToken: 'tok/1' }))).toEqual({ bytes: [5] });
    expect(fetchMock).toHaveBeenCalledTimes(3);

    // the phone's share page and the simple share page's
    sessionStorage.setItem('cadcloud.share.r2', session('t2', Date.now() + 60_000));
    fetchMock.mockResolvedValueOnce(sceneAnswer([8]));
    boot('/webH5/share/s1/r2/view/f2');
    expect(fetchMock.mock.calls[3][0]).toBe('/cloud/v5/drawing/scene?fileId=f2&layout=Model&lang=zh&shareToken=t2');
    expect(fetchMock.mock.calls[3][1].headers['x-client-type']).toBe('Web_H5');
    expect(await tagOf(loadScene('f2', 'Model', undefined, { shareToken: 't2' }))).toEqual({ bytes: [8] });
    fetchMock.mockResolvedValueOnce(sceneAnswer([9]));
    boot('/easyShare/r2/view/f3');
    expect(fetchMock.mock.calls[4][0]).toBe('/cloud/v5/drawing/scene?fileId=f3&layout=Model&lang=zh&shareToken=t2');
    expect(await tagOf(loadScene('f3', 'Model', undefined, { shareToken: 't2' }))).toEqual({ bytes: [9] });

    // a share past its end, or one this tab has not extracted: nothing (the page asks for the code)
    sessionStorage.setItem('cadcloud.share.old', session('t3', Date.now() - 1));
    boot('/share/old/view/abc');
    boot('/share/none/view/abc');
    boot('/share/xyz');
    expect(fetchMock).toHaveBeenCalledTimes(5);
    sessionStorage.clear();
  });

  it('a "not signed in" answer to the early request sends the browser to the login site; other errors reach the viewer', async () => {
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ rtnCode: '101', bizData: null, msg: 'Not signed in' }), { headers: { 'content-type': 'application/json' } }));
    boot('/yun/view/a');
    await expect(loadScene('a', 'Model')).rejects.toMatchObject({ rtnCode: '101' });
    expect(goToLogin).toHaveBeenCalledTimes(1);
    fetchMock.mockRejectedValueOnce(new TypeError('network down'));
    boot('/yun/view/b');
    await expect(loadScene('b', 'Model')).rejects.toMatchObject({ rtnCode: '100' });
    expect(goToLogin).toHaveBeenCalledTimes(1);
  });
});
