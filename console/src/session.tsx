// Who is signed in (GET /admin/v1/session), shared by every page: the member, the stage of its
// sign-in, the rights of its role (which decide the pages, the nav and the buttons shown: the
// server's role table, never a copy of it here) and the CSRF token for writes.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { admin, setCsrf } from './api.ts';

export type StaffRole = 'owner' | 'admin' | 'support' | 'billing' | 'readonly';

export interface Member {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  status: string;
  password_set: boolean;
  two_factor_enabled: boolean;
}

export interface Session {
  stage: 'signed_out' | 'totp' | 'enrol' | 'full';
  member: Member | null;
  /** `accounts:read`, `billing:write`… */
  rights: string[];
  csrf_token: string;
}

export async function loadSession(): Promise<Session> {
  const s = (await admin.get<Session>('/session')).data;
  setCsrf(s.csrf_token);
  return s;
}

export interface SessionState {
  session: Session;
  /** Reads the session again (after a sign-in or sign-out). */
  refresh(): Promise<Session>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the session provider');
  return s;
}

/** Whether the signed-in member's role holds a right (`accounts:write`); no right asked: yes. */
export function can(session: Session, right: string | undefined): boolean {
  return !right || session.rights.includes(right);
}

/** `can` for the signed-in member: `const may = useCan(); may('billing:write') && <Button…>`. */
export function useCan(): (right: string | undefined) => boolean {
  const { session } = useSession();
  return (right) => can(session, right);
}
