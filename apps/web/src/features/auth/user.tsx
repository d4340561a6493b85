import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { call } from '../../lib/api.ts';
import { clientType } from '../../lib/device.ts';

export interface UserInfo {
  id: string;
  name: string;
  email: string;
  vipType: number;
  storage: { used: number; total: number };
  freeze: number;
}

interface UserState {
  user: UserInfo | null;
  refresh(): Promise<void>;
  logout(): void;
}

const Ctx = createContext<UserState>({ user: null, refresh: async () => undefined, logout: () => undefined });

/** Fetches the signed-in user; a 101 answer sends the browser through the login site (see lib/api.ts). */
export function UserProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<UserInfo | null>(null);
  const refresh = useCallback(async () => {
    setUser(await call<UserInfo>('/user/v5/sysuser/userInfo', {}));
  }, []);
  useEffect(() => {
    void refresh().catch(() => undefined);
  }, [refresh]);
  const logout = useCallback(() => {
    // clear what this browser keeps of the user, then end the session here and at the login site
    setUser(null);
    localStorage.removeItem('cadcloud.token');
    sessionStorage.clear();
    window.location.assign(`/api/auth/logout?clientType=${clientType()}`);
  }, []);
  return <Ctx.Provider value={{ user, refresh, logout }}>{children}</Ctx.Provider>;
}

export const useUser = () => useContext(Ctx);
