import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import type { MembershipState } from '@cadcloud/contracts';
import { call } from '../../lib/api.ts';
import { clientType } from '../../lib/device.ts';
import { loadAssistant } from '../assistant/assistant.ts';
import { filesApi } from '../files/api.ts';

/** The user state (spec section 3): with the membership part the server decides (vipType, vipInfo, expiryWarning, rights). */
export interface UserInfo extends MembershipState {
  id: string;
  name: string;
  email: string;
  storage: { used: number; total: number };
  freeze: number;
  /** one of OPERATOR_EMAILS: the user menu links to /operator */
  operator?: boolean;
}

export interface Capacity {
  used: number;
  total: number;
  freeze: number;
}

interface UserState {
  user: UserInfo | null;
  /** Storage from folder/capacity, refreshed after every change that can move it. */
  capacity: Capacity | null;
  refresh(): Promise<void>;
  logout(): void;
}

const Ctx = createContext<UserState>({ user: null, capacity: null, refresh: async () => undefined, logout: () => undefined });

/** Fetches the signed-in user; a 101 answer sends the browser through the login site (see lib/api.ts). */
export function UserProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<UserInfo | null>(null);
  const [capacity, setCapacity] = useState<Capacity | null>(null);
  const refresh = useCallback(async () => {
    const [u, c] = await Promise.all([call<UserInfo>('/user/v5/sysuser/userInfo', {}), filesApi.capacity()]);
    setUser(u);
    setCapacity(c);
    // the AI assistant, when the operator turned it on (nothing is loaded otherwise)
    void filesApi.config().then((conf) => loadAssistant(u, conf), () => undefined);
  }, []);
  useEffect(() => {
    void refresh().catch(() => undefined);
  }, [refresh]);
  const logout = useCallback(() => {
    // clear what this browser keeps of the user, then end the session here and at the login site
    setUser(null);
    setCapacity(null);
    sessionStorage.clear();
    window.location.assign(`/api/auth/logout?clientType=${clientType()}`);
  }, []);
  return <Ctx.Provider value={{ user, capacity, refresh, logout }}>{children}</Ctx.Provider>;
}

export const useUser = () => useContext(Ctx);
