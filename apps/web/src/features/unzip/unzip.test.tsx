// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { Modal, message } from 'antd';
import { UNZIP_POLL_MS } from '@cadcloud/contracts';
import { setLanguage } from '../../lib/i18n.ts';
import { stubBrowserApis } from '../../testing/jsdom.ts';
import { TaskPanel } from '../tasks/TaskPanel.tsx';
import { FileList } from '../../routes/yun/FileList.tsx';
import { H5Item } from '../../routes/h5/H5Item.tsx';
import { H5List } from '../../routes/h5/H5List.tsx';
import { DecompressButton } from './Decompress.tsx';
import type { Item } from '../files/api.ts';

/** The server's side of the calls (the layer the conversion and task panel tests mock): what each answers, and what was sent. */
const ok = (bizData: unknown) => new Response(JSON.stringify({ rtnCode: '0000000', msg: 'success', bizData }), { headers: { 'content-type': 'application/json' } });
const fail = (rtnCode: string, msg: string, code: string) => new Response(JSON.stringify({ rtnCode, msg, bizData: { code } }), { headers: { 'content-type': 'application/json' } });
const item = (o: Partial<Item>) => ({ id: 'z1', name: '图纸.zip', type: 'zip', fileType: 1, size: 2048, version: 1, versionalias: '', descp: '', modifytime: '', createtime: '', modifyTimestamp: Date.now(), parentId: '0', uid: 'u1', fileMD5: '', privateType: '1', freeze: 0, thumbkey: '', transformStatus: 3, ...o }) as Item;
const detail = (o: object) => ({ fileId: 'z1', folderId: null, format: 'zip', entriesDone: 0, entriesTotal: 0, bytesDone: 0, bytesTotal: 0, reports: [], ...o });
const task = (o: { taskId: string; status: number; name?: string; response?: string | null; unzip?: object }) => ({ taskType: 2, name: '图纸.zip', progress: 0, size: null, createTimestamp: Date.now(), response: null, ...o, unzip: detail(o.unzip ?? {}) });
const detect = (o: object) => ({ format: 'zip', hasRepeat: false, folderId: null, folderName: '图纸', newFolderName: '图纸(1)', needPassword: false, entryCount: 3, totalSize: 4096, taskId: null, ...o });

let server: { detect: object; tasks: object[]; listed: number; items: Item[]; unzip?: () => Response };
const calls: { url: string; body: any }[] = [];
const sent = (path: string) => calls.filter((c) => c.url === path).map((c) => c.body.data);

beforeAll(() => {
  stubBrowserApis();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const body = JSON.parse(String(init?.body ?? '{}'));
    calls.push({ url, body });
    const data = body.data ?? {};
    switch (url) {
      case '/cloud/v5/zip/task/list':
        if (data.taskType !== 2) return ok({ list: [] });
        server.listed++;
        return ok({ list: server.tasks });
      case '/cloud/v5/zip/task/cancel':
        return ok({ cancelled: true });
      case '/cloud/v5/file/detectUnzip':
        return ok(server.detect);
      case '/cloud/v5/file/unzipHasPassword':
        return ok({ correct: data.password === 'secret' });
      case '/cloud/v5/file/unzip':
        return server.unzip?.() ?? ok(task({ taskId: 'new', status: 0 }));
      case '/cloud/v5/file/task/transformList':
      case '/cloud/v5/file/task/list3D':
        return ok({ list: [], total: 0 });
      case '/cloud/v5/union/list':
        return ok({ list: server.items, total: server.items.length });
      case '/cloud/v5/file/getFileInfo':
        return ok(server.items.find((i) => i.id === data.fileId));
      case '/global/v5/common/getConfParamsByType':
        return ok({ webUploadFileSize: 1e9, webOpenFileSize: 1e9 });
    }
    throw new TypeError(`unexpected ${url}`);
  });
  setLanguage('en');
});
beforeEach(() => {
  calls.length = 0;
  server = { detect: detect({}), tasks: [], listed: 0, items: [item({ id: 'd1', name: 'plan.dxf', type: 'dxf' }), item({})] };
});
// unmounted after each test: the panel polls and antd animates; toasts and modals live outside the tree cleanup unmounts
afterEach(async () => {
  cleanup();
  message.destroy();
  Modal.destroyAll();
  vi.useRealTimers();
  Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1024 });
  setLanguage('en');
  await new Promise((r) => setTimeout(r, 50));
});
afterAll(() => vi.unstubAllGlobals());

/** Where the app went: the router's address. */
function Where() {
  const l = useLocation();
  return <output data-testid="where">{l.pathname + l.search}</output>;
}
const inRouter = (ui: React.ReactNode, at = '/yun/index') => render(<MemoryRouter initialEntries={[at]}>{ui}<Where /></MemoryRouter>);
const where = () => screen.getByTestId('where').textContent;
const button = (testId: string) => screen.getByTestId(testId).closest('button') ?? screen.getByTestId(testId);

describe('decompression in the web app', () => {
  it('the drive offers Decompress for one archive selected, nothing else; a click on an archive says it does not open and offers it', async () => {
    inRouter(<FileList kind="index" />);
    const zipRow = await screen.findByTestId('row-图纸.zip');
    const dxfRow = screen.getByTestId('row-plan.dxf');
    expect(screen.queryByTestId('btn-unzip')).toBeNull();
    fireEvent.click(within(dxfRow).getByRole('checkbox'));
    expect(screen.queryByTestId('btn-unzip')).toBeNull();
    fireEvent.click(within(zipRow).getByRole('checkbox'));
    // two selected (a drawing and an archive): not offered
    expect(screen.queryByTestId('btn-unzip')).toBeNull();
    fireEvent.click(within(dxfRow).getByRole('checkbox'));
    expect(screen.getByTestId('btn-unzip').textContent).toBe('Decompress');

    fireEvent.click(screen.getByTestId('open-图纸.zip'));
    expect((await screen.findByTestId('unzip-cannot-open')).textContent).toBe('Compressed package files do not support clicking to open');
    expect(where()).toBe('/yun/index');
    fireEvent.click(screen.getByTestId('unzip-offer'));
    await screen.findAllByText('Added to the decompression list');
    expect(sent('/cloud/v5/file/detectUnzip')).toEqual([{ fileId: 'z1' }]);
    expect(sent('/cloud/v5/file/unzip')).toEqual([{ fileId: 'z1' }]);
  });

  it("a folder of the archive's name: Open folder goes there, Decompress again sends mode 'new'", async () => {
    server.detect = detect({ hasRepeat: true, folderId: 'f9' });
    inRouter(<DecompressButton items={[item({})]} />);
    fireEvent.click(screen.getByTestId('btn-unzip'));
    expect((await screen.findByTestId('unzip-repeat')).textContent).toBe('The folder "图纸" is already here. Open it, or decompress again into "图纸(1)"?');
    screen.getByText('A folder with the same name already exists');
    fireEvent.click(screen.getByTestId('unzip-open-existing'));
    await waitFor(() => expect(where()).toBe('/yun/index?folderId=f9'));
    expect(sent('/cloud/v5/file/unzip')).toEqual([]);

    fireEvent.click(screen.getByTestId('btn-unzip'));
    fireEvent.click(await screen.findByTestId('unzip-again'));
    await screen.findAllByText('Added to the decompression list');
    expect(sent('/cloud/v5/file/unzip')).toEqual([{ fileId: 'z1', mode: 'new' }]);
  });

  it('a password: asked, a wrong one said and asked again, the right one sent (with the same-name choice); the server refusal shown as it says', async () => {
    server.detect = detect({ hasRepeat: true, folderId: 'f9', needPassword: true });
    inRouter(<DecompressButton items={[item({})]} />);
    fireEvent.click(screen.getByTestId('btn-unzip'));
    fireEvent.click(await screen.findByTestId('unzip-again'));
    const field = await screen.findByTestId('unzip-password');
    screen.getByText('"图纸.zip" has a password: enter it to decompress');
    fireEvent.change(field, { target: { value: 'guess' } });
    fireEvent.click(button('unzip-password-ok'));
    expect((await screen.findByTestId('unzip-password-wrong')).textContent).toBe('Wrong password, please enter it again');
    expect(sent('/cloud/v5/file/unzip')).toEqual([]);
    fireEvent.change(screen.getByTestId('unzip-password'), { target: { value: 'secret' } });
    fireEvent.click(button('unzip-password-ok'));
    await screen.findAllByText('Added to the decompression list');
    expect(sent('/cloud/v5/file/unzipHasPassword')).toEqual([{ fileId: 'z1', password: 'guess' }, { fileId: 'z1', password: 'secret' }]);
    expect(sent('/cloud/v5/file/unzip')).toEqual([{ fileId: 'z1', password: 'secret', mode: 'new' }]);
    await waitFor(() => expect(screen.queryByTestId('unzip-password')).toBeNull());

    // a second request while the first is queued: the server's words
    message.destroy();
    server.detect = detect({});
    server.unzip = () => fail('2003', 'Already in the decompression queue', 'unzip.alreadyQueued');
    fireEvent.click(screen.getByTestId('btn-unzip'));
    await screen.findAllByText('Already in the decompression queue');
  });

  it("the unzip tab: each status in the spec's words with entries and bytes, cancel, open folder, the failure's message, password entry for 5 and 6, name reports", async () => {
    server.tasks = [
      task({ taskId: 't0', status: 0, name: 'a.zip' }),
      task({ taskId: 't1', status: 1, name: 'b.zip', unzip: { entriesDone: 3, entriesTotal: 10, bytesDone: 1048576, bytesTotal: 4194304 } }),
      task({ taskId: 't2', status: 2, name: 'c.zip', unzip: { folderId: 'f2', entriesDone: 4, entriesTotal: 4, bytesDone: 2048, bytesTotal: 2048, reports: [{ name: 'a:b.dxf', action: 'renamed', to: 'c/a_b.dxf', reason: 'forbidden-chars' }, { name: '../evil.dxf', action: 'refused', to: null, reason: 'parent-path' }] } }),
      task({ taskId: 't3', status: 3, name: 'd.zip', response: 'unzip.damaged' }),
      task({ taskId: 't4', status: 3, name: 'g.zip', response: 'unzip.tooLarge', unzip: { responseArgs: ['2.00GB'] } }),
      task({ taskId: 't5', status: 5, name: 'e.7z', unzip: { fileId: 'z5' } }),
      task({ taskId: 't6', status: 6, name: 'f.rar', unzip: { fileId: 'z6' } }),
    ];
    inRouter(<TaskPanel />);
    // opened by itself (one runs) on the first non-empty tab: the unzip one
    await screen.findByTestId('task-panel');
    await waitFor(() => expect(screen.getByRole('tab', { selected: true }).textContent).toBe('Unzip'));
    const rows = await screen.findAllByTestId('unzip-row');
    const state = (n: number) => within(rows[n]).getByTestId('unzip-state').textContent;
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['0', '1', '2', '3', '3', '5', '6']);
    expect(state(0)).toBe('Waiting');
    expect(state(1)).toBe('Unpacking · 3 / 10 files · 1.00MB / 4.00MB');
    expect(within(rows[1]).getByText('25%')).toBeTruthy();
    expect(state(2)).toBe('Successful · 4 / 4 files · 2.00KB / 2.00KB');
    expect(state(3)).toBe('Failed');
    expect(within(rows[3]).getByTestId('unzip-error').textContent).toBe('The archive is damaged or incomplete');
    expect(within(rows[4]).getByTestId('unzip-error').textContent).toBe('The archive unpacks to more than 2.00GB and cannot be decompressed');
    expect(state(5)).toBe('Wrong password');
    expect(state(6)).toBe('Password-protected');
    // cancel while unfinished or waiting for a password; not once done or failed
    expect(rows.map((r) => !!within(r).queryByTestId('unzip-cancel'))).toEqual([true, true, false, false, false, true, true]);
    expect(rows.map((r) => !!within(r).queryByTestId('unzip-enter-password'))).toEqual([false, false, false, false, false, true, true]);
    fireEvent.click(within(rows[1]).getByTestId('unzip-cancel'));
    await waitFor(() => expect(sent('/cloud/v5/zip/task/cancel')).toEqual([{ taskId: 't1' }]));

    fireEvent.click(within(rows[2]).getByTestId('unzip-reports-toggle'));
    expect(within(rows[2]).getByTestId('unzip-reports').textContent).toBe('a:b.dxf → c/a_b.dxf (forbidden characters)../evil.dxf: not extracted (".." in the path)');

    // wrong password (5): the dialog says so at once; the right one continues the task
    fireEvent.click(within(rows[5]).getByTestId('unzip-enter-password'));
    expect((await screen.findByTestId('unzip-password-wrong')).textContent).toBe('Wrong password, please enter it again');
    fireEvent.change(screen.getByTestId('unzip-password'), { target: { value: 'secret' } });
    fireEvent.click(button('unzip-password-ok'));
    await waitFor(() => expect(sent('/cloud/v5/file/unzip')).toEqual([{ fileId: 'z5', password: 'secret' }]));
    // password-protected (6): asked without a wrong-password note
    fireEvent.click(within(rows[6]).getByTestId('unzip-enter-password'));
    await screen.findByTestId('unzip-password');
    expect(screen.queryByTestId('unzip-password-wrong')).toBeNull();

    fireEvent.click(within(rows[2]).getByTestId('unzip-open'));
    await waitFor(() => expect(where()).toBe('/yun/index?folderId=f2'));
  });

  it('polls every 5 s while a task waits or unpacks, stops when none does, and the drive list showing the archive looks again on success', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    server.tasks = [task({ taskId: 't1', status: 1, unzip: { entriesDone: 1, entriesTotal: 3, bytesDone: 10, bytesTotal: 30 } })];
    inRouter(<><FileList kind="index" /><TaskPanel /></>);
    await screen.findByTestId('row-图纸.zip');
    await waitFor(() => expect(screen.getAllByTestId('unzip-row')).toHaveLength(1));
    const listedBefore = calls.filter((c) => c.url === '/cloud/v5/union/list').length;
    const before = server.listed;
    act(() => vi.advanceTimersByTime(UNZIP_POLL_MS));
    await waitFor(() => expect(server.listed).toBe(before + 1));
    // done: shown, the drive list (the archive's folder) loaded again, and no more polling
    server.tasks = [task({ taskId: 't1', status: 2, unzip: { folderId: 'f1', entriesDone: 3, entriesTotal: 3, bytesDone: 30, bytesTotal: 30 } })];
    act(() => vi.advanceTimersByTime(UNZIP_POLL_MS));
    await waitFor(() => expect(screen.getByTestId('unzip-state').textContent).toMatch(/^Successful/));
    await waitFor(() => expect(calls.filter((c) => c.url === '/cloud/v5/union/list').length).toBe(listedBefore + 1));
    const after = server.listed;
    act(() => vi.advanceTimersByTime(UNZIP_POLL_MS * 4));
    await new Promise((r) => setTimeout(r, 100));
    expect(server.listed).toBe(after);
  });

  it('at phone width (zh): a tap on an archive offers Decompress and follows it on the archive page, with its task, progress and folder', async () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 375 });
    setLanguage('zh');
    server.tasks = [task({ taskId: 't2', status: 2, unzip: { folderId: 'f2', entriesDone: 4, entriesTotal: 4, bytesDone: 2048, bytesTotal: 2048 } }), task({ taskId: 'tx', status: 2, name: 'other.zip', unzip: { fileId: 'other', folderId: 'fx' } })];
    inRouter(
      <Routes>
        <Route path="/webH5/cloud" element={<H5List mode="cloud" />} />
        <Route path="/webH5/item/:fileId" element={<H5Item />} />
      </Routes>,
      '/webH5/cloud',
    );
    fireEvent.click(await screen.findByTestId('h5-row-图纸.zip'));
    expect((await screen.findByTestId('unzip-cannot-open')).textContent).toBe('压缩包文件不支持点击打开');
    fireEvent.click(button('unzip-offer'));
    await waitFor(() => expect(where()).toBe('/webH5/item/z1'));
    expect(sent('/cloud/v5/file/unzip')).toEqual([{ fileId: 'z1' }]);
    // the archive page: Decompress among its actions, and its own decompressions only
    await screen.findByTestId('btn-unzip');
    expect(button('btn-unzip').textContent).toBe('解压');
    const rows = await within(await screen.findByTestId('h5-unzip-tasks')).findAllByTestId('unzip-row');
    expect(rows).toHaveLength(1);
    expect(within(rows[0]).getByTestId('unzip-state').textContent).toBe('解压成功 · 4 / 4 个文件 · 2.00KB / 2.00KB');
    fireEvent.click(within(rows[0]).getByTestId('unzip-open'));
    await waitFor(() => expect(where()).toBe('/webH5/cloud?folderId=f2'));
  });
});
