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
