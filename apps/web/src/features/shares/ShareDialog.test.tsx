// @vitest-environment jsdom
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import '../../lib/i18n.ts';
import { setLanguage } from '../../lib/i18n.ts';
import { ShareDialog } from './ShareDialog.tsx';

// antd's form validation renders its messages after a few frames: on a loaded 2-core CI machine that took over the default 1 s
configure({ asyncUtilTimeout: 10_000 });

beforeAll(() => {
  // antd reads matchMedia and the tabs watch their size: jsdom has neither
  window.ResizeObserver ??= class { observe() {} unobserve() {} disconnect() {} } as unknown as typeof ResizeObserver;
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
});
afterEach(() => vi.unstubAllGlobals());
// antd closes popups on timers: unmount, then let them run while jsdom's window still exists
afterAll(async () => {
  cleanup();
  await new Promise((r) => setTimeout(r, 1000));
});

const share = {
  shareId: 's1', rand: 'R4nd0m', kind: 'link', code: '0427', password: 'ab12', validDays: 5, shareTime: 0, expiresAt: 1, remainingMs: 1, state: 'active',
  rights: { canView: true, canDownload: false, canSave: true, showNotes: false },
  url: 'http://cad.example/share/R4nd0m', shareUrl: 'http://cad.example/share/R4nd0m', h5Url: 'http://cad.example/webH5/share/s1/R4nd0m', linkToken: 'x', items: [],
};

describe('share dialog, link tab', () => {
  it('shows the spec messages at the field and creates nothing until the form is right; then sends what was entered', async () => {
    setLanguage('en');
    const calls: { path: string; data: Record<string, unknown> }[] = [];
    vi.stubGlobal('fetch', vi.fn(async (path: string, init: RequestInit) => {
      calls.push({ path, data: JSON.parse(String(init.body)).data });
      return new Response(JSON.stringify({ rtnCode: '0000000', msg: 'ok', bizData: share }), { headers: { 'content-type': 'application/json' } });
    }));
    render(<App><ShareDialog open items={[{ id: 'f1', name: 'plan.dxf', fileType: 1 }, { id: 'd1', name: 'Sheets', fileType: 0 }]} onClose={() => undefined} /></App>);
    const days = await screen.findByTestId('share-days');
    const password = screen.getByTestId('share-password-input');
    const create = screen.getByTestId('share-create');

    fireEvent.change(days, { target: { value: '100' } });
    fireEvent.click(create);
    await screen.findByText('Please enter a positive integer 0-99!');
    fireEvent.change(days, { target: { value: 'x1' } });
    await screen.findByText('Please enter the correct number');
    fireEvent.change(days, { target: { value: '5' } });
    fireEvent.change(password, { target: { value: 'a-12' } });
    fireEvent.click(create);
    await screen.findByText('The password must be 4 letters or digits');
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual([]);

    fireEvent.change(password, { target: { value: 'ab12' } });
    fireEvent.click(screen.getByTestId('share-right-download'));
    fireEvent.click(create);
    await screen.findByTestId('share-result');
    expect(calls).toHaveLength(1);
    expect(calls[0].path).toBe('/cloud/v5/share/create');
    expect(calls[0].data).toEqual({ fileIds: ['f1'], folderIds: ['d1'], validDays: 5, password: 'ab12', codeKind: 'digits4', canDownload: false, canSave: true, showNotes: false });
    expect((screen.getByTestId('share-link') as HTMLInputElement).value).toBe('http://cad.example/share/R4nd0m');
    expect(screen.getByTestId('share-code').textContent).toBe('0427');
    await waitFor(() => expect(screen.getByTestId('share-qr').querySelector('svg')).not.toBeNull());
    // antd renders slowly under jsdom: ~25 s alone on a loaded 2-core machine
  }, 120_000);

  it('offers only codes that outlast the validity: a permanent share takes the 8-character code unless it has a password', async () => {
    cleanup();
    setLanguage('en');
    const calls: Record<string, unknown>[] = [];
    vi.stubGlobal('fetch', vi.fn(async (_path: string, init: RequestInit) => {
      calls.push(JSON.parse(String(init.body)).data);
      return new Response(JSON.stringify({ rtnCode: '0000000', msg: 'ok', bizData: { ...share, code: 'k7m2q9xw', codeKind: 'alnum8', validDays: 0 } }), { headers: { 'content-type': 'application/json' } });
    }));
    render(<App><ShareDialog open items={[{ id: 'f1', name: 'plan.dxf', fileType: 1 }]} onClose={() => undefined} /></App>);
    // (antd puts the test id on the radio's input)
    const radio = (k: string) => {
      const el = screen.getByTestId(`share-code-kind-${k}`);
      return (el instanceof HTMLInputElement ? el : el.querySelector('input')) as HTMLInputElement;
    };
    await screen.findByTestId('share-code-kind');
    expect(radio('digits4').checked).toBe(true);
    expect(screen.getByText(/4 digits up to 13 days/)).toBeTruthy();
    fireEvent.change(screen.getByTestId('share-days'), { target: { value: '30' } });
    await waitFor(() => expect(radio('digits6').checked).toBe(true));
    expect(radio('digits4').disabled).toBe(true);
    fireEvent.change(screen.getByTestId('share-days'), { target: { value: '0' } });
    await waitFor(() => expect(radio('alnum8').checked).toBe(true));
    expect([radio('digits4').disabled, radio('digits6').disabled]).toEqual([true, true]);
    // a password multiplies what a guesser must cover: every length again
    fireEvent.change(screen.getByTestId('share-password-input'), { target: { value: 'ab12' } });
    await waitFor(() => expect(radio('digits4').disabled).toBe(false));
    fireEvent.change(screen.getByTestId('share-password-input'), { target: { value: '' } });
    fireEvent.click(screen.getByTestId('share-create'));
    await screen.findByTestId('share-result');
    expect(calls).toEqual([{ fileIds: ['f1'], folderIds: [], validDays: 0, password: '', codeKind: 'alnum8', canDownload: true, canSave: true, showNotes: false }]);
    expect(screen.getByTestId('share-code').textContent).toBe('k7m2q9xw');
  }, 120_000);
});
