// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { message } from 'antd';
import { setLanguage } from '../../lib/i18n.ts';
import { stubBrowserApis } from '../../testing/jsdom.ts';
import { firstNonEmptyTab, TaskPanel } from '../tasks/TaskPanel.tsx';
import { ConvertButton, parsePages } from './ConvertDialog.tsx';
import { ConvertAction } from './ConvertAction.tsx';
import type { Item } from '../files/api.ts';

const ok = (bizData: unknown) => new Response(JSON.stringify({ rtnCode: '0000000', msg: 'success', bizData }), { headers: { 'content-type': 'application/json' } });
const conversion = (o: object) => ({ taskId: 't1', fileId: 'f1', sourceName: 'plan.dxf', target: 'pdf', version: null, transformStatus: 0, progress: 40, stage: 'draw', resultFileId: null, resultName: null, code: null, msg: null, createTimestamp: Date.now(), finishTimestamp: null, ...o });
const calls: { url: string; body: any }[] = [];

beforeAll(() => {
  stubBrowserApis();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init?.body ?? '{}')) });
    if (url.startsWith('/cloud/v5/zip/task/list')) return ok({ list: [] });
    if (url.startsWith('/cloud/v5/file/task/transformList')) return ok({ total: 2, list: [conversion({}), conversion({ taskId: 't0', sourceName: 'bad.dxf', transformStatus: 2, progress: 10, stage: 'failed', code: 'conversion.failed', msg: 'Failed to convert the file format.' })] });
    if (url.startsWith('/cloud/v5/file/task/transformRetry')) return ok({ list: [conversion({ taskId: 't2', sourceName: 'bad.dxf' })] });
    if (url.startsWith('/cloud/v5/file/task/checkTaskStatusBatch')) return ok({ list: [{ fileId: 'i1', transformStatus: 3, progress: 0, stage: '', resultFileId: null, resultName: null, taskId: null, code: null, msg: null }] });
    if (url.startsWith('/cloud/v5/file/task/transformTargets')) return ok({ targets: ['pdf', 'png', 'jpg', 'bmp', 'dxf'], pdfTargets: ['dxf'], versions: ['2018'], pdfToDrawing: false, freePerMonth: 5, usedThisMonth: 0, premium: true });
    if (url.startsWith('/cloud/v5/file/task/transformBatch')) return ok({ list: [conversion({ fileId: 'i1' })] });
    throw new TypeError(`unexpected ${url}`);
  });
  setLanguage('en');
});
// unmounted after each test: the task panel polls and antd animates, and React work left scheduled when the jsdom
// environment is torn down throws "window is not defined" after the file has passed (seen on a loaded machine). The
// dialog's "added to the conversion list" toast lives in antd's own root, outside the tree cleanup unmounts, with a
// 3 s timer: each test waits for it (the start has run to its end), and it is closed with the tree.
afterEach(async () => {
  cleanup();
  message.destroy();
  await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => vi.unstubAllGlobals());

/** The dialog's start has run to its end (the toast is up, then closed): nothing of it is left to run after the test. */
async function queued() {
  await screen.findAllByText('The file has been added to the conversion list and is being converted');
  message.destroy();
}

const item = (o: Partial<Item>) => ({ id: 'i1', name: 'plan.dxf', type: 'dxf', fileType: 1, transformStatus: 3, ...o }) as Item;

describe('conversion in the web app', () => {
  it("a PDF's pages as the dialog reads them: blank for all, lists and ranges, anything else refused", () => {
    expect(parsePages('')).toBeUndefined();
    expect(parsePages(' 1, 3-5 ,3')).toEqual([1, 3, 4, 5]);
    for (const bad of ['0', '5-3', 'a', '1,,2', '1-2000']) expect(parsePages(bad), bad).toBeNull();
  });

  it('the panel opens by itself on the conversion tab for a running conversion (first non-empty tab), with progress, stage and a failed one to retry', async () => {
    expect(firstNonEmptyTab({ upload: 0, download: 0, unzip: 0, convert: 1 })).toBe('convert');
    expect(firstNonEmptyTab({ upload: 0, download: 1, unzip: 0, convert: 1 })).toBe('download');
    render(<MemoryRouter><TaskPanel /></MemoryRouter>);
    await screen.findByTestId('task-panel');
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Convert'));
    screen.getByText('plan.dxf → PDF');
    screen.getByText('Drawing');
    screen.getByText('Failed to convert the file format.');
    fireEvent.click(screen.getByTestId('conversion-retry'));
    await waitFor(() => expect(calls.find((c) => c.url.startsWith('/cloud/v5/file/task/transformRetry'))?.body.data).toEqual({ taskId: 't0' }));
  });

  it('toolbar transform: drawings only, and not while one of them converts', () => {
    const { rerender } = render(<ConvertButton items={[]} />);
    const button = () => screen.getByTestId('btn-transform') as HTMLButtonElement;
    expect(button().disabled).toBe(true);
    rerender(<ConvertButton items={[item({})]} />);
    expect(button().disabled).toBe(false);
    rerender(<ConvertButton items={[item({}), item({ id: 'i2', name: 'a.png', type: 'png' })]} />);
    expect(button().disabled).toBe(true);
    rerender(<ConvertButton items={[item({ transformStatus: 0 })]} />);
    expect(button().disabled).toBe(true);
    expect(button().title).toBe('There are files being converted, please select again');
  });

  it("the viewer's Convert: \"current layout\" is the layout the viewer shows, sent by name (not the drawing's default)", async () => {
    calls.length = 0;
    render(<MemoryRouter><ConvertAction file={{ id: 'i1', name: 'plan.dxf' }} layout="Layout2" /></MemoryRouter>);
    fireEvent.click(await screen.findByTestId('viewer-convert'));
    const current = await screen.findByText(/Current layout \(Layout2\)/);
    fireEvent.click(current);
    await waitFor(() => expect((screen.getByTestId('convert-start') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('convert-start'));
    await waitFor(() => expect(calls.find((c) => c.url.startsWith('/cloud/v5/file/task/transformBatch'))?.body.data).toMatchObject({ fileIds: ['i1'], target: 'pdf', options: { layouts: ['Layout2'] } }));
    await queued();
  });

  it("the viewer's Convert of a picture: area the current view sends the rectangle shown (read at start) with the layout shown; extents sends none", async () => {
    cleanup();
    calls.length = 0;
    let shown = { minX: 0, minY: 0, maxX: 10, maxY: 10 };
    render(<MemoryRouter><ConvertAction file={{ id: 'i1', name: 'plan.dxf' }} layout="Model" currentView={() => shown} /></MemoryRouter>);
    fireEvent.click(await screen.findByTestId('viewer-convert'));
    const dialog = await screen.findByTestId('convert-dialog');
    // PDF: no area choice (the area is a picture's)
    expect(dialog.querySelector('[data-testid="convert-area"]')).toBeNull();
    fireEvent.mouseDown(within(within(dialog).getByTestId('convert-target')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('PNG picture'));
    fireEvent.click(await screen.findByText('Current view'));
    // the user pans after choosing: what is sent is the view when the conversion starts
    shown = { minX: 100, minY: 50, maxX: 300, maxY: 150 };
    await waitFor(() => expect((screen.getByTestId('convert-start') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('convert-start'));
    await waitFor(() => expect(calls.find((c) => c.url.startsWith('/cloud/v5/file/task/transformBatch'))?.body.data).toMatchObject({ target: 'png', options: { area: { minX: 100, minY: 50, maxX: 300, maxY: 150 }, layouts: ['Model'] } }));
    await queued();
  });

  it('the toolbar and the phone (no view to read) offer no area: pictures are of the extents', async () => {
    cleanup();
    render(<MemoryRouter><ConvertAction file={{ id: 'i1', name: 'plan.dxf' }} layout="Model" /></MemoryRouter>);
    fireEvent.click(await screen.findByTestId('viewer-convert'));
    const dialog = await screen.findByTestId('convert-dialog');
    fireEvent.mouseDown(within(within(dialog).getByTestId('convert-target')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('PNG picture'));
    await waitFor(() => expect(dialog.querySelector('[data-testid="convert-width"]')).not.toBeNull());
    expect(dialog.querySelector('[data-testid="convert-area"]')).toBeNull();
  });

  it("a PDF's plot scale 1:N is sent as scale (blank: none, the PDF's own size); a drawing's dialog has no such field", async () => {
    cleanup();
    calls.length = 0;
    render(<ConvertButton items={[item({ name: 'plan.pdf', type: 'pdf' })]} />);
    fireEvent.click(screen.getByTestId('btn-transform'));
    const field = (await screen.findByTestId('convert-pdf-scale')) as HTMLInputElement;
    screen.getByText('Scale 1:N');
    fireEvent.change(field, { target: { value: '50' } });
    await waitFor(() => expect((screen.getByTestId('convert-start') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('convert-start'));
    const sent = () => calls.find((c) => c.url.startsWith('/cloud/v5/file/task/transformBatch'))?.body.data;
    await waitFor(() => expect(sent()).toMatchObject({ target: 'dxf', options: { scale: 50 } }));
    await queued();
    cleanup();
    calls.length = 0;
    render(<ConvertButton items={[item({ name: 'plan.pdf', type: 'pdf' })]} />);
    fireEvent.click(screen.getByTestId('btn-transform'));
    await screen.findByTestId('convert-pdf-scale');
    await waitFor(() => expect((screen.getByTestId('convert-start') as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByTestId('convert-start'));
    await waitFor(() => expect(sent()).toBeDefined());
    await queued();
    expect(sent().options).not.toHaveProperty('scale');
    cleanup();
    render(<ConvertButton items={[item({})]} />);
    fireEvent.click(screen.getByTestId('btn-transform'));
    await screen.findByTestId('convert-dialog');
    expect(screen.queryByTestId('convert-pdf-scale')).toBeNull();
  });
});
