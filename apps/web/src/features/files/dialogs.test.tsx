// @vitest-environment jsdom
import { describe, expect, it, vi, beforeAll, afterAll } from 'vitest';
import { render, screen, fireEvent, waitFor, cleanup } from '@testing-library/react';
import '../../lib/i18n.ts';
import { setLanguage } from '../../lib/i18n.ts';
import { NameDialog } from './dialogs.tsx';

beforeAll(() => {
  // antd reads matchMedia, which jsdom does not have
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false })) as unknown as typeof window.matchMedia;
});

// antd closes its popups and tooltips on timers: unmount, then let those timers run while jsdom's window
// still exists (on a loaded machine they used to fire after the environment was gone: "window is not defined")
afterAll(async () => {
  cleanup();
  await new Promise((r) => setTimeout(r, 1000));
});

describe('name dialog', () => {
  it('shows the special-characters message and does not submit a bad name', async () => {
    setLanguage('en');
    const onSubmit = vi.fn(async () => undefined);
    render(<NameDialog open title="Rename" label="New name" initial="plan.dwg" onCancel={() => undefined} onSubmit={onSubmit} />);
    const input = await screen.findByTestId('name-input');
    fireEvent.change(input, { target: { value: 'pl?n.dwg' } });
    fireEvent.click(screen.getByRole('button', { name: /OK/ }));
    await screen.findByText(/Names cannot contain special characters/);
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: 'plan-2.dwg' } });
    fireEvent.click(screen.getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('plan-2.dwg'));
  });
});

describe('name dialog: names that disguise or break files', () => {
  it('refuses device names, bidi and control characters and dot-only stems with the same message', async () => {
    cleanup();
    setLanguage('en');
    const onSubmit = vi.fn(async () => undefined);
    render(<NameDialog open title="New folder" label="Name" initial="" onCancel={() => undefined} onSubmit={onSubmit} />);
    const input = await screen.findByTestId('name-input');
    for (const bad of ['CON', 'nul.txt', 'LPT1.tar.gz', 'invoice\u202Egpj.exe', 'tab\tname', '..dwg', 'plan.dwg.']) {
      fireEvent.change(input, { target: { value: bad } });
      fireEvent.click(screen.getByRole('button', { name: /OK/ }));
      await screen.findByText(/Names cannot contain special characters/);
      // a name let through would be sent once validation settles
      await new Promise((r) => setTimeout(r, 100));
      expect(onSubmit, JSON.stringify(bad)).not.toHaveBeenCalled();
    }
    fireEvent.change(input, { target: { value: 'CONSOLE' } });
    fireEvent.click(screen.getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith('CONSOLE'));
  });
});
