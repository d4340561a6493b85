// @vitest-environment jsdom
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../../lib/i18n.ts';
import { stubBrowserApis } from '../../testing/jsdom.ts';
import { firstNonEmptyTab, TaskPanel } from './TaskPanel.tsx';
import { taskEvents } from './task-events.ts';
import { uploadQueue } from '../uploads/uploads.ts';

const ok = (bizData: unknown) => new Response(JSON.stringify({ rtnCode: '0000000', msg: 'success', bizData }), { headers: { 'content-type': 'application/json' } });

beforeAll(() => {
  stubBrowserApis();
  // the server's side of the calls the panel makes: one zip still being prepared; every upload is known (instant)
  vi.stubGlobal('fetch', async (url: string) => {
    if (url.startsWith('/cloud/v5/zip/task/list')) return ok({ list: [{ taskId: 't1', taskType: 1, status: 1, name: 'drawings.zip', progress: 40, size: null, createTimestamp: Date.now(), response: null }] });
    if (url.startsWith('/cloud/v5/file/detectUpload')) return ok({ exists: true, needUpload: false, item: null });
    throw new TypeError(`unexpected ${url}`);
  });
  setLanguage('en');
});
afterAll(() => vi.unstubAllGlobals());

describe('task panel', () => {
  it('picks the first non-empty tab', () => {
    expect(firstNonEmptyTab({ upload: 0, download: 2, unzip: 1 })).toBe('download');
    expect(firstNonEmptyTab({ upload: 1, download: 2, unzip: 0 })).toBe('upload');
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 3 })).toBe('unzip');
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 0 })).toBe('upload');
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 0, convert: 0, model3d: 1 })).toBe('model3d');
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 0, convert: 2, model3d: 1 })).toBe('convert');
  });

  it('opens by itself on the download tab for a zip in progress, and on the upload tab once uploads exist', async () => {
    render(<TaskPanel />);
    await screen.findByTestId('task-panel');
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Download'));
    screen.getByText('drawings.zip');

    act(() => uploadQueue.add([{ file: new Blob(['same bytes as before']), name: 'plan.dwg', parentId: '0' }]));
    // closed and shown again (the header's task button): the first non-empty tab is now the upload one
    fireEvent.click(screen.getByRole('button', { name: 'close' }));
    expect(screen.queryByTestId('task-panel')).toBeNull();
    act(() => taskEvents.open());
    await screen.findByTestId('task-panel');
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Upload'));
    await waitFor(() => expect(screen.getByTestId('upload-row').getAttribute('data-status')).toBe('instant'));
    screen.getByText('Instant upload');
  });
});
