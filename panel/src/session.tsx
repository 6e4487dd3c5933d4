// Who is signed in (GET /panel/api/me), shared by every page: the person, the account, the
// permissions that decide which pages and buttons show, and the CSRF token for writes.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { panel, setCsrf } from './api.ts';

export interface Me {
  signed_in: boolean;
  stage: 'totp' | 'full' | null;
  csrf_token: string;
  sign_up_open: boolean;
  user: { email: string; role: 'owner' | 'sub_user'; sub_user_id: number | null; two_factor: boolean; permissions: string[] } | null;
  account: { id: string; name: string; status: string; has_vdc_pool: boolean } | null;
  session: { id: string; expires_at: string } | null;
  /** A staff member signed in as the customer: the banner shows it, with "End". */
  impersonation: { staff_name: string; reason: string; read_only: boolean } | null;
}

export async function loadMe(): Promise<Me> {
  const me = (await panel.get<Me>('/me')).data;
  setCsrf(me.csrf_token);
  return me;
}

export interface SessionState {
  me: Me;
  /** Reads /me again (after a sign-in, sign-out or a change of permissions). */
  refresh(): Promise<Me>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the session provider');
  return s;
}

/** Whether the signed-in person holds a scope (`servers:read`…); the owner holds all. */
export function can(me: Me, scope: string): boolean {
  return Boolean(me.user?.permissions.includes(scope));
}
