import { call, clientInfo } from '../../lib/api.ts';

/** What the operator's assistant script finds on `window.CADCLOUD_ASSISTANT` (spec section 7). */
export interface AssistantContext {
  userToken: string;
  clientInfo: ReturnType<typeof clientInfo>;
  userId: string;
  name: string;
  avatar: string;
}

declare global {
  interface Window {
    CADCLOUD_ASSISTANT?: AssistantContext;
  }
}

const TOKEN_KEY = 'cadcloud.assistantToken';
let loaded = false;

/**
 * The AI feedback assistant (spec section 7): only when getConfParamsByType{type:2} says it is on, its script is
 * loaded from the operator's address, once per page, after the context it needs is in place. Its user token is a
 * session of its own (assistantToken), kept for the tab so a reload does not make another.
 */
export async function loadAssistant(user: { id: string; name: string; favicon?: string }, conf: { aiAssistant: boolean; aiAssistantScriptUrl?: string }): Promise<boolean> {
  if (loaded || !conf.aiAssistant || !conf.aiAssistantScriptUrl) return false;
  loaded = true;
  let token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) {
    token = (await call<{ token: string }>('/user/v5/sysuser/assistantToken', {})).token;
    sessionStorage.setItem(TOKEN_KEY, token);
  }
  window.CADCLOUD_ASSISTANT = { userToken: token, clientInfo: clientInfo(), userId: user.id, name: user.name, avatar: user.favicon ?? '' };
  const script = document.createElement('script');
  script.src = conf.aiAssistantScriptUrl;
  script.async = true;
  script.dataset.testid = 'ai-assistant-script';
  document.head.appendChild(script);
  return true;
}
