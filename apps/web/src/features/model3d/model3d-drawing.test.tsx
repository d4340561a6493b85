// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../../lib/i18n.ts';
import { stubBrowserApis } from '../../testing/jsdom.ts';
import { isDrawing3d, Model3dButton } from './Model3dAction.tsx';

const calls: { url: string; body: { data?: { fileIds?: string[] } } }[] = [];

beforeAll(() => {
  stubBrowserApis();
  setLanguage('en');
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init?.body ?? '{}')) });
    return new Response(JSON.stringify({ rtnCode: '0000000', msg: 'success', bizData: { list: [], allDone: false } }), { headers: { 'content-type': 'application/json' } });
  });
});
afterEach(cleanup);

describe("a drawing's 3D solids (issue 21)", () => {
  it('offers Convert to 3D for DWG and DXF files (a 2D conversion done does not make it Open 3D), and asks the server for them', async () => {
    expect([isDrawing3d({ fileType: 1, name: 'a.DWG' }), isDrawing3d({ fileType: 1, name: 'b.dxf' }), isDrawing3d({ fileType: 1, name: 'c.pdf' }), isDrawing3d({ fileType: 0, name: 'd.dwg' })]).toEqual([true, true, false, false]);
    const notify = { info: vi.fn(), warning: vi.fn(), error: vi.fn() };
    const started = vi.fn();
    render(<Model3dButton items={[{ id: 'd1', name: 'plant.dwg', fileType: 1, transformStatus: 1 }]} notify={notify} onStarted={started} />);
    const button = screen.getByTestId('btn-model3d');
    expect(button.textContent).toMatch(/Convert/i);
    fireEvent.click(button);
    await waitFor(() => expect(started).toHaveBeenCalled());
    expect(calls.map((c) => [c.url, c.body.data?.fileIds])).toEqual([['/cloud/v5/file/task/transformBatch3D', ['d1']]]);
    cleanup();
    // a drawing chosen with a file that is neither: no 3D button
    render(<Model3dButton items={[{ id: 'd1', name: 'plant.dwg', fileType: 1 }, { id: 'p1', name: 'notes.pdf', fileType: 1 }]} notify={notify} onStarted={started} />);
    expect(screen.queryByTestId('btn-model3d')).toBeNull();
  });
});
