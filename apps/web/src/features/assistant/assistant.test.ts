// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../lib/api.ts', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  call: vi.fn(async (path: string) => {
    if (path !== '/user/v5/sysuser/assistantToken') throw new Error(path);
    return { token: 'assistant-session' };
  }),
}));
const { call } = await import('../../lib/api.ts');
const { loadAssistant } = await import('./assistant.ts');

describe('the AI assistant slot', () => {
  const user = { id: 'u1', name: 'Ann', favicon: 'https://example.com/a.png' };

  it('loads nothing while the operator has not turned it on', async () => {
    expect(await loadAssistant(user, { aiAssistant: false })).toBe(false);
    expect(document.querySelector('script')).toBeNull();
    expect(window.CADCLOUD_ASSISTANT).toBeUndefined();
    expect(vi.mocked(call)).not.toHaveBeenCalled();
  });

  it("loads the operator's script once, with user token, client info, user id, name and avatar", async () => {
    expect(await loadAssistant(user, { aiAssistant: true, aiAssistantScriptUrl: 'https://assistant.example.com/w.js' })).toBe(true);
    const scripts = document.querySelectorAll('script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0].src).toBe('https://assistant.example.com/w.js');
    expect(window.CADCLOUD_ASSISTANT).toMatchObject({ userToken: 'assistant-session', userId: 'u1', name: 'Ann', avatar: 'https://example.com/a.png', clientInfo: { clientType: expect.any(String), language: expect.any(String) } });
    expect(await loadAssistant(user, { aiAssistant: true, aiAssistantScriptUrl: 'https://assistant.example.com/w.js' })).toBe(false);
    expect(document.querySelectorAll('script')).toHaveLength(1);
  });
});
